/** axe-core in a real page: the serious and critical violations, each with the elements it names. */
import axe from 'axe-core';
import type { Page } from 'playwright-core';

/** The panel inside its shadow root, as axe takes a context that crosses one. */
export const PANEL_CONTEXT = {
  include: [{ fromShadowDom: ['threadwork-ui[data-threadwork-host="panel"]', '.tw-panel'] }],
};

export async function seriousViolations(page: Page, context: unknown = null) {
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
