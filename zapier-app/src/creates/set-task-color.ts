import { SHADES } from '@threadwork/shared/light';
import { defineAction } from './define.ts';
import { SHADE_CHOICES, taskFields } from './fields.ts';
import { task } from './resources.ts';

export default defineAction({
  key: 'set_task_color',
  noun: 'Task',
  label: 'Set Task Color',
  description:
    "Updates the color (shade) of a task; None clears it. With Set Task Custom Fields, this is what the service lets you update: a task's title, notes and due date cannot change after it is created.",
  inputFields: [
    ...taskFields(),
    {
      key: 'shade',
      label: 'Color',
      required: true,
      choices: SHADE_CHOICES,
      helpText: 'The color of the card, e.g. `red`; `none` clears it.',
    },
  ],
  resource: task,
  perform: ({ input, v2, idempotencyKey }) =>
    v2().tasks.update(
      input.required('task_id'),
      { shade: input.requiredChoice('shade', SHADES) },
      { idempotencyKey: idempotencyKey() },
    ),
});
