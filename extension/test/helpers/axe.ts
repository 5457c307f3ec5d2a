/**
 * axe-core in a real page or frame (the panel's frame: all of it is the panel): the serious and critical
 * violations, each with the elements it names.
 */
import axe from 'axe-core';
import type { Frame, Page } from 'playwright-core';

export async function seriousViolations(page: Page | Frame, context: unknown = null) {
  await page.evaluate(axe.source);
  return page.evaluate(async (within) => {
    const { axe: run } = window as unknown as { axe: typeof axe };
    const result = await run.run((within ?? document) as axe.ElementContext, { resultTypes: ['violations'] });
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({
        id: violation.id,
        nodes: violation.nodes.map((node) => `${node.target.join(' ')}: ${node.failureSummary}`),
      }));
  }, context);
}
