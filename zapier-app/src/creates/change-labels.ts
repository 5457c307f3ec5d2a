import type { EmailLabel } from '@threadwork/shared';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { v2Client } from '../lib/clients.ts';
import { type DynamicFields, defineAction } from './define.ts';
import { defined, type InputField, threadField } from './fields.ts';
import { thread } from './resources.ts';

function labelField(key: 'add' | 'remove', labels: EmailLabel[] | undefined): InputField {
  const verb = key === 'add' ? 'add to' : 'remove from';
  return {
    key,
    label: key === 'add' ? 'Labels to Add' : 'Labels to Remove',
    list: true,
    required: false,
    ...(labels === undefined
      ? {}
      : {
          choices: labels.map((label) => ({
            value: label.id,
            label: label.name ?? label.id,
            sample: label.id,
          })),
        }),
    helpText: `Label IDs to ${verb} the thread, e.g. \`Label_1\` or a system label such as \`STARRED\`.`,
  };
}

/** The mailbox's labels as choices; when they cannot be read, label IDs can still be typed or mapped. */
const labelInputs: DynamicFields = async (z: ZObject, bundle: Bundle) => {
  let labels: EmailLabel[] | undefined;
  try {
    labels = (await (await v2Client(z, bundle)).emailLabels.list()).labels;
  } catch {
    labels = undefined;
  }
  return [labelField('add', labels), labelField('remove', labels)];
};

export default defineAction({
  key: 'change_labels',
  noun: 'Email Thread',
  label: 'Add or Remove Email Labels',
  description: "Updates a mailbox thread's labels: adds some, removes others (e.g. `INBOX` to archive it).",
  inputFields: [threadField(), labelInputs],
  resource: thread,
  perform: ({ input, v2, idempotencyKey }) =>
    v2().emailThreads.changeLabels(
      input.required('thread_id'),
      defined({ add: input.list('add'), remove: input.list('remove') }),
      { idempotencyKey: idempotencyKey() },
    ),
});
