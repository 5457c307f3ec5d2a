export * from './client/index.ts';
export * from './schemas/index.ts';
