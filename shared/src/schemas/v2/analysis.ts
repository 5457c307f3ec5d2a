import { z } from 'zod';
import { DateTime, openEnum } from '../common.ts';

export const URGENCIES = ['low', 'medium', 'high'] as const;
export const SENTIMENTS = ['negative', 'neutral', 'positive'] as const;
export const THREAD_STATUSES = ['needs_reply', 'waiting', 'resolved', 'fyi'] as const;

/** The AI classification of a thread, cached until a newer message arrives. */
export const ThreadAnalysis = z.looseObject({
  thread_id: z.string(),
  message_id: z.string(),
  urgency: openEnum(URGENCIES),
  sentiment: openEnum(SENTIMENTS),
  status: openEnum(THREAD_STATUSES),
  analyzed_at: DateTime,
  model: z.string(),
});
export type ThreadAnalysis = z.infer<typeof ThreadAnalysis>;
