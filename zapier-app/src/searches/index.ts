import type { Search, SearchOrCreate } from 'zapier-platform-core';
import findCompany from './find-company.ts';
import findContact from './find-contact.ts';
import findMember from './find-member.ts';
import findTask from './find-task.ts';
import findTaskById from './find-task-by-id.ts';
import findThread from './find-thread.ts';

/** Every search of the app, one file each; the app is keyed by their `key`. */
const searches: Search[] = [findTask, findThread, findContact, findCompany, findMember, findTaskById];

/** Find-or-create: Zapier runs the search, and the create when it finds nothing. */
export const searchOrCreates: SearchOrCreate[] = [
  {
    key: 'find_task',
    display: {
      label: 'Find or Create Task',
      description: 'Finds a task by its exact title in a list or board, or creates it when there is none.',
    },
    search: 'find_task',
    create: 'create_task',
  },
  {
    key: 'find_contact',
    display: {
      label: 'Find or Create Contact',
      description: "Finds a contact in a team's CRM, or creates it when there is none.",
    },
    search: 'find_contact',
    create: 'create_contact',
  },
  {
    key: 'find_company',
    display: {
      label: 'Find or Create Company',
      description: "Finds a company in a team's CRM, or creates it when there is none.",
    },
    search: 'find_company',
    create: 'create_company',
  },
];

export default searches;
