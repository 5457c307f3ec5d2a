import type { Trigger } from 'zapier-platform-core';
import boards from './boards.ts';
import lists from './lists.ts';
import newTaskInList from './new-task-in-list.ts';
import newTaskOnBoard from './new-task-on-board.ts';
import newThreadReply from './new-thread-reply.ts';
import taskArchived from './task-archived.ts';
import taskAssigned from './task-assigned.ts';
import taskCompleted from './task-completed.ts';
import taskDeleted from './task-deleted.ts';
import taskMovedToList from './task-moved-to-list.ts';
import teams from './teams.ts';
import threads from './threads.ts';

/** Every trigger of the app: the instant ones, then the hidden dropdown helpers. */
const triggers: Trigger[] = [
  newTaskInList,
  newTaskOnBoard,
  taskCompleted,
  taskArchived,
  taskDeleted,
  taskAssigned,
  taskMovedToList,
  newThreadReply,
  teams,
  boards,
  lists,
  threads,
];

export default triggers;
