import { defineSearch } from '../creates/define.ts';
import { boardField, teamField } from '../creates/fields.ts';
import { boardMember } from '../creates/resources.ts';
import { allBoardMembers } from '../lib/board-members.ts';

export default defineSearch({
  key: 'find_member',
  noun: 'Member',
  label: 'Find Board Member',
  description: 'Finds a member of a board by email (or by part of the name), to assign tasks to.',
  inputFields: [
    teamField(),
    boardField({
      required: true,
      helpText:
        'The board whose members to search (choose a team first), or map a board ID (e.g. `brd_roadmap`).',
    }),
    {
      key: 'email',
      label: 'Email',
      required: true,
      helpText:
        'The email to look for, e.g. `bob@example.com`. An exact email (any case) comes first, then names or emails containing it.',
    },
  ],
  resource: boardMember,
  perform: async ({ input, v2 }) => {
    const wanted = input.required('email').toLowerCase();
    const members = await allBoardMembers(v2(), input.required('board_id'));
    const exact = members.filter((member) => member.email.toLowerCase() === wanted);
    const partial = members.filter(
      (member) =>
        member.email.toLowerCase() !== wanted &&
        (member.email.toLowerCase().includes(wanted) ||
          (member.display_name ?? '').toLowerCase().includes(wanted)),
    );
    return [...exact, ...partial].map((member) => ({
      id: member.user_id,
      email: member.email,
      display_name: member.display_name,
    }));
  },
});
