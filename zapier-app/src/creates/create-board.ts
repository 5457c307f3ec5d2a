import { defineAction } from './define.ts';
import { teamField } from './fields.ts';
import { board } from './resources.ts';

export default defineAction({
  key: 'create_board',
  noun: 'Board',
  label: 'Create Board',
  description: 'Creates a shared board in a team.',
  inputFields: [
    teamField({
      required: true,
      helpText: 'The team that owns the board. Pick one, or map a team ID (e.g. `team_acme`).',
    }),
    { key: 'name', label: 'Name', required: true, helpText: 'The board name, e.g. `Roadmap 2026`.' },
  ],
  resource: board,
  perform: ({ input, v2, idempotencyKey }) =>
    v2().boards.create(
      { team_id: input.required('team_id'), name: input.required('name') },
      { idempotencyKey: idempotencyKey() },
    ),
});
