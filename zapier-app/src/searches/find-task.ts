import type { Task } from '@threadwork/shared';
import { defineSearch } from '../creates/define.ts';
import { boardField, listField, teamField } from '../creates/fields.ts';
import { requireListOnBoard } from '../creates/list-on-board.ts';
import { task } from '../creates/resources.ts';

/** A big board is read a page of 200 tasks at a time; the walk stops at the first exact title. */
const PAGE_SIZE = 200;
const MAX_PAGES = 10;

export default defineSearch({
  key: 'find_task',
  noun: 'Task',
  label: 'Find Task',
  description: 'Finds a task by its title in a list, or anywhere on a board.',
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
        'The title to look for, e.g. `Call Bob`. An exact title (any case) comes first, then titles containing it.',
    },
  ],
  resource: task,
  perform: async (context) => {
    const { input, v2 } = context;
    await requireListOnBoard(context);
    const q = input.required('title').toLowerCase();
    const listId = input.text('list_id');
    const scope = listId === undefined ? { board_id: input.required('board_id') } : { list_id: listId };
    const exact: Task[] = [];
    const partial: Task[] = [];
    let page: Awaited<ReturnType<ReturnType<typeof v2>['tasks']['list']>> | null = await v2().tasks.list({
      ...scope,
      limit: PAGE_SIZE,
    });
    for (let pages = 1; page !== null; pages++) {
      for (const candidate of page.data) {
        const title = candidate.title.toLowerCase();
        if (title === q) exact.push(candidate);
        else if (title.includes(q)) partial.push(candidate);
      }
      if (exact.length > 0 || pages >= MAX_PAGES) break;
      page = await page.nextPage();
    }
    return [...exact, ...partial];
  },
});
