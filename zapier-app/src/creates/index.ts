import type { Create } from 'zapier-platform-core';
import analyzeThread from './analyze-thread.ts';
import archiveTask from './archive-task.ts';
import assignTask from './assign-task.ts';
import changeLabels from './change-labels.ts';
import completeTask from './complete-task.ts';
import createBoard from './create-board.ts';
import createCompany from './create-company.ts';
import createContact from './create-contact.ts';
import createDraft from './create-draft.ts';
import createList from './create-list.ts';
import createTask from './create-task.ts';
import createTaskFromThread from './create-task-from-thread.ts';
import deleteTask from './delete-task.ts';
import linkThread from './link-thread.ts';
import markTaskIncomplete from './mark-task-incomplete.ts';
import moveTask from './move-task.ts';
import reorderTask from './reorder-task.ts';
import replyToThread from './reply-to-thread.ts';
import sendEmail from './send-email.ts';
import setCustomFields from './set-custom-fields.ts';
import setReadState from './set-read-state.ts';
import setTaskColor from './set-task-color.ts';
import snoozeThread from './snooze-thread.ts';
import unassignTask from './unassign-task.ts';
import updateCompany from './update-company.ts';
import updateContact from './update-contact.ts';

/** Every action of the app, one file each; the app is keyed by their `key`. */
const creates: Create[] = [
  createTask,
  createTaskFromThread,
  completeTask,
  markTaskIncomplete,
  assignTask,
  unassignTask,
  moveTask,
  reorderTask,
  setTaskColor,
  setCustomFields,
  linkThread,
  archiveTask,
  deleteTask,
  createBoard,
  createList,
  createContact,
  updateContact,
  createCompany,
  updateCompany,
  createDraft,
  replyToThread,
  sendEmail,
  changeLabels,
  setReadState,
  snoozeThread,
  analyzeThread,
];

export default creates;
