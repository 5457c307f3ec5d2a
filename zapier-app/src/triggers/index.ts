import type { Trigger } from 'zapier-platform-core';
import boards from './boards.ts';
import companies from './companies.ts';
import contacts from './contacts.ts';
import lists from './lists.ts';
import members from './members.ts';
import newTaskInList from './new-task-in-list.ts';
import newTaskOnBoard from './new-task-on-board.ts';
import newThreadReply from './new-thread-reply.ts';
import taskArchived from './task-archived.ts';
import taskAssigned from './task-assigned.ts';
import taskCompleted from './task-completed.ts';
import taskDeleted from './task-deleted.ts';
import taskMovedToList from './task-moved-to-list.ts';
import taskUncompleted from './task-uncompleted.ts';
import taskUpdated from './task-updated.ts';
import tasks from './tasks.ts';
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
  taskUpdated,
  taskUncompleted,
  teams,
  boards,
  lists,
  threads,
  tasks,
  contacts,
  companies,
  members,
];

export default triggers;
