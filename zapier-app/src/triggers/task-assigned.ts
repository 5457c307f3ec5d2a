import { memberField } from '../creates/fields.ts';
import { bareAddress } from '../lib/addresses.ts';
import { restHookTrigger, sampleItem } from './rest-hook.ts';

/** v1 action `assignedTo`; optionally only the assignments to one member (checked on each delivery). */
export default restHookTrigger({
  key: 'task_assigned',
  action: 'assignedTo',
  noun: 'Task',
  label: 'Task Assigned',
  description: 'Triggers when a task on a board is assigned to someone (or to the member you choose).',
  sampleFilter: (item) => item.assignedToEmail !== '',
  filter: {
    inputFields: [
      memberField({
        label: 'Assignee',
        required: false,
        helpText:
          'Only tasks assigned to this member of the board: pick one, or enter an email or full name (e.g. `bob@example.com`). Every assignment when left empty.',
      }),
    ],
    // An email (also `Name <email>`) or the member's full name, any case.
    keep: (item, input) => {
      const given = input.text('assignee_email');
      if (given === undefined) return true;
      const wanted = bareAddress(given).toLowerCase();
      return item.assignedToEmail.toLowerCase() === wanted || item.assignedTo.trim().toLowerCase() === wanted;
    },
  },
  sample: sampleItem({ id: 'evt_0c5d2a9e7f1b4c3a' }),
});
