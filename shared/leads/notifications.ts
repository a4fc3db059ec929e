import * as z from 'zod';

/**
 * What a verified platform webhook body says: which leads to read (docs/leads.md). Neither platform
 * sends a lead's answers, only its ids; a body that fits neither shape is kept and reported, never
 * guessed at. Ids may come as JSON numbers: they are read as text (no precision lost above 2^53).
 */
export type LeadNotice =
  | { platform: 'social'; pageId: string; leadId: string; formId?: string; adId?: string; createdAt?: string }
  | { platform: 'professional'; accountId: string; leadId: string; formId?: string; action: 'CREATED' | 'DELETED' };

const id = z.union([z.string().min(1), z.number()]).transform(String);

const socialBody = z.object({
  object: z.literal('page'),
  entry: z.array(
    z.object({
      id,
      changes: z.array(
        z.object({
          field: z.string(),
          value: z
            .object({ leadgen_id: id, page_id: id.optional(), form_id: id.optional(), ad_id: id.optional(), created_time: z.number().optional() })
            .partial({ leadgen_id: true }),
        }),
      ),
    }),
  ),
});

const professionalNotice = z.object({
  type: z.literal('LEAD_ACTION'),
  leadGenFormResponse: z.string(),
  leadGenForm: z.string().optional(),
  owner: z.object({ sponsoredAccount: z.string().optional(), organization: z.string().optional() }),
  leadAction: z.enum(['CREATED', 'DELETED']),
});

/** Ids in a body whose big numbers JSON.parse would round: every integer above 2^53 is read as text. */
export function parseWithExactIds(raw: string): unknown {
  return JSON.parse(raw.replace(/([:[,]\s*)(-?\d{16,})(?=\s*[,}\]])/g, '$1"$2"'));
}

/** The body as JSON, or undefined when it is not JSON at all (kept and reported like any body of no known shape). */
function parsedOrUndefined(raw: string): unknown {
  try {
    return parseWithExactIds(raw);
  } catch {
    return undefined;
  }
}

export function socialNotices(raw: string): LeadNotice[] | undefined {
  const parsed = socialBody.safeParse(parsedOrUndefined(raw));
  if (!parsed.success) return undefined;
  return parsed.data.entry.flatMap((entry) =>
    entry.changes
      .filter((change) => change.field === 'leadgen' && change.value.leadgen_id)
      .map((change) => ({
        platform: 'social' as const,
        pageId: change.value.page_id ?? entry.id,
        leadId: change.value.leadgen_id as string,
        ...(change.value.form_id ? { formId: change.value.form_id } : {}),
        ...(change.value.ad_id ? { adId: change.value.ad_id } : {}),
        ...(change.value.created_time ? { createdAt: new Date(change.value.created_time * 1000).toISOString() } : {}),
      })),
  );
}

const lastSegment = (urn: string) => urn.slice(urn.lastIndexOf(':') + 1);

/** One notification, or (as one receiver sees) an array of them. */
export function professionalNotices(raw: string): LeadNotice[] | undefined {
  const body = parsedOrUndefined(raw);
  if (body === undefined) return undefined;
  const parsed = z.array(professionalNotice).safeParse(Array.isArray(body) ? body : [body]);
  if (!parsed.success) return undefined;
  return parsed.data.flatMap((notice) => {
    const owner = notice.owner.sponsoredAccount;
    if (!owner) return [];
    const form = notice.leadGenForm ? /leadGenForm:(\d+)/.exec(notice.leadGenForm)?.[1] : undefined;
    return [
      {
        platform: 'professional' as const,
        accountId: lastSegment(owner),
        leadId: lastSegment(notice.leadGenFormResponse),
        ...(form ? { formId: form } : {}),
        action: notice.leadAction,
      },
    ];
  });
}
