import { defineSearch } from '../creates/define.ts';
import { boardField, teamField } from '../creates/fields.ts';
import { type BoardMemberOutput, boardMember } from '../creates/resources.ts';
import { allBoardMembers } from '../lib/board-members.ts';
import { allowPartialField, bestMatches, matchedResource, matchQuery } from './match.ts';

export default defineSearch({
  key: 'find_member',
  noun: 'Member',
  label: 'Find Board Member',
  description: 'Finds a member of a board by exact email or name, to assign tasks to.',
  inputFields: [
    teamField(),
    boardField({
      required: true,
      helpText:
        'The board whose members to search (choose a team first), or map a board ID (e.g. `brd_roadmap`).',
    }),
    {
      key: 'email',
      label: 'Email or Name',
      required: true,
      helpText:
        'The email or full name to look for, e.g. `bob@example.com` or `Bob Stone`: any case, spaces around it ignored. Only an exact one is found unless Allow Partial Match is yes.',
    },
    allowPartialField('email or name', { wanted: 'Bob', found: 'Bob Stone' }),
  ],
  resource: matchedResource(boardMember),
  perform: async ({ input, v2 }) => {
    const members: BoardMemberOutput[] = (await allBoardMembers(v2(), input.required('board_id'))).map(
      (member) => ({ id: member.user_id, email: member.email, display_name: member.display_name }),
    );
    return bestMatches(
      members,
      matchQuery(input, 'email', (member: BoardMemberOutput) => [member.email, member.display_name]),
    );
  },
});
