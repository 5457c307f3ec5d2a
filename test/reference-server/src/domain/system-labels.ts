/** Labels every mailbox has, with the provider's fixed ids. User labels start with `Label_`. */
export const SYSTEM_LABELS: readonly { id: string; name: string }[] = [
  { id: 'INBOX', name: 'Inbox' },
  { id: 'SENT', name: 'Sent' },
  { id: 'DRAFT', name: 'Drafts' },
  { id: 'SPAM', name: 'Spam' },
  { id: 'TRASH', name: 'Trash' },
  { id: 'STARRED', name: 'Starred' },
  { id: 'IMPORTANT', name: 'Important' },
  { id: 'UNREAD', name: 'Unread' },
  { id: 'CATEGORY_PERSONAL', name: 'Personal' },
  { id: 'CATEGORY_SOCIAL', name: 'Social' },
  { id: 'CATEGORY_PROMOTIONS', name: 'Promotions' },
  { id: 'CATEGORY_UPDATES', name: 'Updates' },
  { id: 'CATEGORY_FORUMS', name: 'Forums' },
];

export const SYSTEM_LABEL_IDS: ReadonlySet<string> = new Set(SYSTEM_LABELS.map((label) => label.id));
