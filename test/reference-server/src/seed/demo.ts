// The bundled demo workspace (`--demo`): a small studio with a product board and a sales pipeline,
// CRM records, and Ada's connected mailbox. Credentials are fixed so that a demo can be scripted.
import { DEFAULT_SCOPES, OPT_IN_SCOPES } from '@threadwork/shared/schemas';
import type { SeedInput } from './seed-schema.ts';

export const DEMO_CREDENTIALS = {
  email: 'ada@northwind.test',
  v2Secret: 'tw_demo_v2_5f0c1d2e3a4b5c6d7e8f9a0b1c2d3e4f',
  legacyKeyName: 'Zapier',
  legacyApiKey: 'demoapikey0123456789',
  legacyApiSecret: 'demoapisecret9876543210abcdef',
} as const;

type SeedTask = NonNullable<SeedInput['tasks']>[number];
type SeedThread = NonNullable<NonNullable<SeedInput['mailboxes']>[number]['threads']>[number];

const ada = { email: DEMO_CREDENTIALS.email, name: 'Ada Lovelace' };
const day = (n: number, hour = 9) => new Date(Date.UTC(2026, 0, n, hour, 0, 0)).toISOString();

function thread(
  id: string,
  subject: string,
  from: { email: string; name: string },
  bodies: string[],
): SeedThread {
  return {
    id,
    messages: bodies.map((body, index) => {
      const inbound = index % 2 === 0;
      const messageId = index === 0 ? id : `${id.slice(0, -2)}${(index + 16).toString(16)}`;
      return {
        id: messageId,
        from: inbound ? from : ada,
        to: [inbound ? ada : from],
        subject: index === 0 ? subject : `Re: ${subject}`,
        date: day(5 + index, 9 + index),
        body_text: body,
        labels: inbound ? ['INBOX', ...(index === bodies.length - 1 ? ['UNREAD'] : [])] : ['SENT'],
      };
    }),
  };
}

const productTasks: SeedTask[] = [
  ['lst_backlog', 'Write onboarding checklist', 'none'],
  ['lst_backlog', 'Audit accessibility of the settings page', 'yellow'],
  ['lst_backlog', 'Plan Q2 roadmap review', 'none'],
  ['lst_backlog', 'Research calendar integration', 'light_blue'],
  ['lst_doing', 'Fix duplicate notifications', 'red'],
  ['lst_doing', 'Design the new task card', 'purple'],
  ['lst_doing', 'Reply to Stone Ltd about the export bug', 'orange'],
  ['lst_review', 'Dark mode colour tokens', 'none'],
  ['lst_review', 'Release notes for 4.2', 'green'],
  ['lst_done', 'Migrate billing emails', 'none'],
  ['lst_done', 'Set up error alerts', 'none'],
].map(([list_id, title, shade], index) => ({
  id: `tsk_demo_p${String(index + 1).padStart(2, '0')}`,
  list_id: list_id as string,
  title: title as string,
  shade: shade as SeedTask['shade'],
  completed: list_id === 'lst_done',
  created_at: day(2 + index),
  assignee_id: index % 3 === 0 ? 'usr_grace' : 'usr_ada',
  custom_fields:
    index % 2 === 0 ? [{ field_id: 'cf_priority', value: [index < 5 ? 'opt_high' : 'opt_low'] }] : [],
}));
productTasks[6] = { ...productTasks[6]!, thread_ids: ['18c2f0a1b2c3d4e5'] };

const salesTasks: SeedTask[] = [
  ['lst_leads', 'Stone Ltd: annual plan', 'con_bob', 'cmp_stone', 12000, '18c2f0a1b2c3d4f0'],
  ['lst_leads', 'Harbor Freight Co: pilot', 'con_mia', 'cmp_harbor', 4800, null],
  ['lst_leads', 'Lumen Labs: team seats', 'con_raj', 'cmp_lumen', 2400, '18c2f0a1b2c3d500'],
  ['lst_qualified', 'Orchard Foods: rollout', 'con_lee', 'cmp_orchard', 30000, null],
  ['lst_qualified', 'Stone Ltd: support add-on', 'con_bob', 'cmp_stone', 1800, null],
  ['lst_proposal', 'Harbor Freight Co: expansion', 'con_mia', 'cmp_harbor', 9600, '18c2f0a1b2c3d510'],
  ['lst_won', 'Lumen Labs: starter', 'con_raj', 'cmp_lumen', 1200, null],
  ['lst_lost', 'Orchard Foods: 2025 renewal', 'con_lee', 'cmp_orchard', 5000, null],
].map(([list_id, title, contact_id, _company, value, threadId], index) => ({
  id: `tsk_demo_s${String(index + 1).padStart(2, '0')}`,
  list_id: list_id as string,
  title: title as string,
  content_type: 'sale' as const,
  created_at: day(3 + index, 14),
  assignee_id: 'usr_ada',
  contact_id: contact_id as string,
  thread_ids: threadId ? [threadId as string] : [],
  completed: list_id === 'lst_won',
  deal: {
    value: value as number,
    source: index % 2 === 0 ? 'web' : 'referral',
    close_date: list_id === 'lst_won' || list_id === 'lst_lost' ? day(20 + index) : null,
    loss_reason: list_id === 'lst_lost' ? 'Chose a cheaper tool' : null,
  },
  custom_fields: [{ field_id: 'cf_response', value: [index % 2 === 0 ? 'opt_needs_reply' : 'opt_waiting'] }],
}));

const contact = (id: string, name: string, company: string, email: string, stage: string) => {
  const [first_name, last_name] = name.split(' ');
  return {
    id,
    team_id: 'team_northwind',
    name,
    first_name: first_name ?? null,
    last_name: last_name ?? null,
    type: 'sale',
    stage,
    source: 'web',
    contact_info: [{ type: 'email', value: email }],
    company_id: company,
  };
};

export const demoSeed: SeedInput = {
  users: [
    { id: 'usr_ada', email: DEMO_CREDENTIALS.email, display_name: 'Ada Lovelace' },
    { id: 'usr_grace', email: 'grace@northwind.test', display_name: 'Grace Hopper' },
    { id: 'usr_linus', email: 'linus@northwind.test', display_name: 'Linus Pauling' },
  ],
  teams: [
    {
      id: 'team_northwind',
      name: 'Northwind Studio',
      members: ['usr_ada', 'usr_grace', 'usr_linus'],
      subscription: { plan: 'pro', status: 'active' },
    },
  ],
  boards: [
    {
      id: 'brd_product',
      team_id: 'team_northwind',
      name: 'Product',
      board_type: 'shared',
      template: 'project',
      lists: [
        { id: 'lst_backlog', name: 'Backlog' },
        { id: 'lst_doing', name: 'In progress' },
        { id: 'lst_review', name: 'Review' },
        { id: 'lst_done', name: 'Done' },
      ],
      custom_fields: [
        {
          id: 'cf_priority',
          name: 'Priority',
          type: 'tag',
          display_on_card: true,
          options: [
            { id: 'opt_high', label: 'High' },
            { id: 'opt_medium', label: 'Medium' },
            { id: 'opt_low', label: 'Low' },
          ],
        },
        { id: 'cf_estimate', name: 'Estimate (days)', type: 'number' },
      ],
    },
    {
      id: 'brd_sales',
      team_id: 'team_northwind',
      name: 'Sales pipeline',
      board_type: 'sales',
      template: 'sales',
      lists: [
        { id: 'lst_leads', name: 'Leads' },
        { id: 'lst_qualified', name: 'Qualified' },
        { id: 'lst_proposal', name: 'Proposal' },
        { id: 'lst_won', name: 'Won' },
        { id: 'lst_lost', name: 'Lost' },
      ],
      custom_fields: [
        {
          id: 'cf_response',
          name: 'Response status',
          type: 'status',
          ai: true,
          display_on_card: true,
          options: [
            { id: 'opt_needs_reply', label: 'Needs reply' },
            { id: 'opt_waiting', label: 'Waiting' },
            { id: 'opt_resolved', label: 'Resolved' },
          ],
        },
      ],
    },
  ],
  tasks: [...productTasks, ...salesTasks],
  companies: [
    {
      id: 'cmp_stone',
      team_id: 'team_northwind',
      name: 'Stone Ltd',
      company_info: [{ type: 'domain', value: 'stone.test' }],
    },
    { id: 'cmp_harbor', team_id: 'team_northwind', name: 'Harbor Freight Co', stage: 'Customer' },
    { id: 'cmp_lumen', team_id: 'team_northwind', name: 'Lumen Labs', tags: ['startup'] },
    { id: 'cmp_orchard', team_id: 'team_northwind', name: 'Orchard Foods', type: 'enterprise' },
  ],
  contacts: [
    contact('con_bob', 'Bob Stone', 'cmp_stone', 'bob@stone.test', 'Lead'),
    contact('con_mia', 'Mia Harbor', 'cmp_harbor', 'mia@harbor.test', 'Customer'),
    contact('con_raj', 'Raj Patel', 'cmp_lumen', 'raj@lumen.test', 'Lead'),
    contact('con_lee', 'Lee Chen', 'cmp_orchard', 'lee@orchard.test', 'Customer'),
  ],
  mailboxes: [
    {
      user_id: 'usr_ada',
      provider_id: 'gmail',
      email_address: DEMO_CREDENTIALS.email,
      labels: [
        { id: 'Label_1', name: 'Clients' },
        { id: 'Label_2', name: 'Billing' },
      ],
      threads: [
        thread(
          '18c2f0a1b2c3d4e5',
          'Export to CSV drops the last row',
          { email: 'bob@stone.test', name: 'Bob Stone' },
          [
            'Hi Ada, exporting the March report to CSV loses the last row every time. Can you take a look?',
            'Thanks Bob, we can reproduce it and are on it.',
            'Great, any news? We need the report by Friday.',
          ],
        ),
        thread(
          '18c2f0a1b2c3d4f0',
          'Quote for the annual plan',
          { email: 'bob@stone.test', name: 'Bob Stone' },
          ['Could you send us a quote for 40 seats on the annual plan?'],
        ),
        thread('18c2f0a1b2c3d500', 'Team seats for Lumen', { email: 'raj@lumen.test', name: 'Raj Patel' }, [
          'We are growing to 12 people next month. What would team seats cost?',
          'Hi Raj, I will send the pricing sheet today.',
        ]),
        thread(
          '18c2f0a1b2c3d510',
          'Expansion to the Rotterdam office',
          { email: 'mia@harbor.test', name: 'Mia Harbor' },
          ['We would like to roll out to our Rotterdam office as well. Can we talk on Tuesday?'],
        ),
        thread(
          '18c2f0a1b2c3d520',
          'Your invoice for January',
          { email: 'billing@vendor.test', name: 'Vendor Billing' },
          ['Your invoice for January is attached. Thank you for your business.'],
        ),
      ],
    },
  ],
  api_keys: [
    {
      id: 'key_demo_legacy',
      user_id: 'usr_ada',
      type: 'legacy',
      name: DEMO_CREDENTIALS.legacyKeyName,
      api_key: DEMO_CREDENTIALS.legacyApiKey,
      api_secret: DEMO_CREDENTIALS.legacyApiSecret,
      // No `scopes`: a seeded key holds every scope, so a newcomer can try every action (sending mail too).
    },
    {
      id: 'key_demo_v2',
      user_id: 'usr_ada',
      type: 'v2',
      name: 'demo',
      secret: DEMO_CREDENTIALS.v2Secret,
      scopes: [...DEFAULT_SCOPES],
    },
  ],
};

/** What `pnpm start` prints so that a person can try the API right away. */
export function demoCredentials(origin: string): string {
  const c = DEMO_CREDENTIALS;
  return [
    'demo workspace "Northwind Studio":',
    `  v2:  curl -H "Authorization: Bearer ${c.v2Secret}" ${origin}/v2/me`,
    `  v1:  email=${c.email} api_key=${c.legacyApiKey} api_secret=${c.legacyApiSecret} api_key_name=${c.legacyKeyName}`,
    `       curl -X POST "${origin}/auth/api_token?email=${c.email}&api_key=${c.legacyApiKey}&api_secret=${c.legacyApiSecret}&api_key_name=${c.legacyKeyName}"`,
    `       the v1 key holds every scope (${OPT_IN_SCOPES.join(' and ')} included): use it in the Zapier app and the extension`,
  ].join('\n');
}
