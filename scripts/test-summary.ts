/**
 * Reads Vitest's JSON report and prints the closing line CI reads: "N passed, N failed[, N skipped]".
 * Exits non-zero when a test failed, a file failed to load, or no test ran at all.
 */
import { readFileSync } from 'node:fs';

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  numFailedTestSuites: number;
  testResults: { name: string; status: string; message?: string }[];
}

const path = process.argv[2] ?? 'reports/vitest.json';
let report: VitestReport;
try {
  report = JSON.parse(readFileSync(path, 'utf8')) as VitestReport;
} catch (error) {
  console.log(`no test report at ${path}: ${(error as Error).message}`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}

// A file that fails to import counts as a failure even though none of its tests ran.
const brokenFiles = report.testResults.filter((file) => file.status === 'failed' && file.message);
for (const file of brokenFiles) console.log(`failed to run ${file.name}: ${file.message?.split('\n')[0]}`);

const failed = report.numFailedTests + (report.numFailedTests === 0 ? report.numFailedTestSuites : 0);
const skipped = report.numPendingTests + report.numTodoTests;
console.log(`${report.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || report.numPassedTests === 0 ? 1 : 0);
