import { defineSearch } from '../creates/define.ts';
import { boardField, listField, teamField } from '../creates/fields.ts';
import { requireListOnBoard } from '../creates/list-on-board.ts';
import { task } from '../creates/resources.ts';
import { allowPartialField, matchedResource, matchQuery, scanPages } from './match.ts';

/** A big board is read a page of 200 tasks at a time; the walk stops at the first exact title. */
const PAGE_SIZE = 200;

export default defineSearch({
  key: 'find_task',
  noun: 'Task',
  label: 'Find Task',
  description: 'Finds a task by its exact title in a list, or anywhere on a board.',
  inputFields: [
    teamField(),
    boardField({
      helpText:
        'Search the whole board (choose a team first), or map a board ID (e.g. `brd_roadmap`). Give a board or a list.',
    }),
    listField({
      required: false,
      helpText:
        'Search only this list (choose a board first), or map a list ID (e.g. `lst_todo`); wins over Board.',
    }),
    {
      key: 'title',
      label: 'Title',
      required: true,
      helpText:
        'The title to look for, e.g. `Call Bob`: any case, spaces around it ignored. Only an exact title is found unless Allow Partial Match is yes.',
    },
    allowPartialField('title', { wanted: 'Plan Q2', found: 'Plan Q2 roadmap review' }),
  ],
  resource: matchedResource(task),
  perform: async (context) => {
    const { input, v2 } = context;
    await requireListOnBoard(context);
    const listId = input.text('list_id');
    const scope = listId === undefined ? { board_id: input.required('board_id') } : { list_id: listId };
    const query = matchQuery(input, 'title', (candidate: { title: string }) => [candidate.title]);
    return scanPages(await v2().tasks.list({ ...scope, limit: PAGE_SIZE }), query);
  },
});
