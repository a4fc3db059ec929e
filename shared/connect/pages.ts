import type { AccountChoice, PageChoice } from '../platforms/connect-flow.ts';

/**
 * The small pages a person's browser sees while connecting: self-contained HTML (no script, style or
 * outside asset, so `default-src 'self'` holds), every value escaped.
 */
// no form-action: browsers apply it to the redirect that follows the picker's post, which goes to the tenant's own site
export const CONNECT_PAGE_CSP = "default-src 'self'; frame-ancestors 'none'; base-uri 'none'";

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function document(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title></head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${body}
</main>
</body>
</html>
`;
}

export const messagePage = (title: string, message: string) => document(title, `<p>${escapeHtml(message)}</p>`);

const PLATFORM_NAMES = { social: 'social', searchads: 'search ads', professional: 'professional network' } as const;

function accountOption(account: AccountChoice, index: number): string {
  const label = [account.name || 'Unnamed account', account.id, account.currency]
    .filter(Boolean)
    .map((part) => escapeHtml(String(part)))
    .join(' · ');
  const disabled = account.selectable ? '' : ' disabled';
  const checked = index === 0 ? ' checked' : '';
  return `<li><label><input type="radio" name="accountId" value="${escapeHtml(account.id)}"${account.selectable ? checked : ''}${disabled} required> ${label}${account.selectable ? '' : ' (unavailable)'}</label></li>`;
}

function pageOption(page: PageChoice, index: number): string {
  const label = [page.name || 'Unnamed Page', page.id].map((part) => escapeHtml(part)).join(' · ');
  return `<li><label><input type="radio" name="pageId" value="${escapeHtml(page.id)}"${index === 0 ? ' checked' : ''} required> ${label}</label></li>`;
}

/** The account picker: the accounts (unusable ones shown, not selectable) and, for social, the Pages. */
export function pickerPage(options: {
  attemptId: string;
  platform: keyof typeof PLATFORM_NAMES;
  accounts: AccountChoice[];
  pages: PageChoice[];
  problem?: string;
}): string {
  const selectable = options.accounts.filter((account) => account.selectable);
  const ordered = [...selectable, ...options.accounts.filter((account) => !account.selectable)];
  const pages = options.pages.length > 0 ? `<fieldset><legend>Page</legend><ul>${options.pages.map(pageOption).join('')}</ul></fieldset>` : '';
  return document(
    `Choose your ${PLATFORM_NAMES[options.platform]} ad account`,
    `${options.problem ? `<p role="alert">${escapeHtml(options.problem)}</p>` : ''}
<form method="post" action="/auth/select/${encodeURIComponent(options.attemptId)}">
<fieldset><legend>Ad account</legend><ul>${ordered.map(accountOption).join('')}</ul></fieldset>
${pages}
<button type="submit">Connect</button>
</form>`,
  );
}
