import { describe, expect, it } from 'vitest';
import { buildCampaignMutate } from '../../shared/platforms/searchads/campaign-mutate.ts';
import { toLeadgenFormBody } from '../../shared/platforms/social/lead-forms.ts';
import { createLeadFormRequest } from '../../functions/create-lead-form/schema.ts';
import { createSearchCampaignRequest } from '../../shared/schemas/search-campaign.ts';
import { expectedLeadgenBody, validForm, winterCampaign } from '../helpers/examples.ts';
import { fixture } from '../helpers/fixtures.ts';

/** The adapters' pure body builders against the contracts' hand-checked request bodies, with no stack. */
describe('buildCampaignMutate (docs/platforms.md, "Search ads")', () => {
  const winter = createSearchCampaignRequest.parse(winterCampaign('u1'));

  it('builds exactly the contract’s example mutate, temporary ids and all', () => {
    const expected = fixture('searchads/mutate-create-search-campaign.request.json');
    const built = buildCampaignMutate(winter, '1234567890', [], 'a1b2c3');
    expect(built.mutateOperations[0]).toMatchObject({ campaignBudgetOperation: { create: { name: 'Winter Tune-Up 2026 budget a1b2c3' } } });
    (built.mutateOperations[0] as any).campaignBudgetOperation.create.name = expected.mutateOperations[0].campaignBudgetOperation.create.name;
    expect(JSON.parse(JSON.stringify(built))).toEqual(expected);
  });

  it('is a dry run when asked, and never a partial failure', () => {
    const built = buildCampaignMutate({ ...winter, validateOnly: true }, '1234567890', [], 'a1b2c3');
    expect(built).toMatchObject({ validateOnly: true, partialFailure: false, responseContentType: 'RESOURCE_NAME_ONLY' });
  });
});

describe('toLeadgenFormBody (docs/platforms.md, "Social")', () => {
  const example = validForm('u1');
  const form = createLeadFormRequest.parse({ ...example, thankYouPage: { ...example.thankYouPage, button_type: 'VISIT_WEBSITE' } });

  it('maps every field, numbers the questions, and sends the spec’s VISIT_WEBSITE as VIEW_WEBSITE', () => {
    expect(toLeadgenFormBody(form)).toEqual(expectedLeadgenBody(example.leadsFormName));
  });

  it('a call button carries the phone and country and no website; MORE_VOLUME is not optimised for quality', () => {
    const body = toLeadgenFormBody({
      ...form,
      form_type: 'MORE_VOLUME',
      intro: undefined,
      thankYouPage: {
        title: 'Thanks!',
        body: 'Call us.',
        button_text: 'Call',
        button_type: 'CALL_BUSINESS',
        country_code: 'US',
        business_phone_number: '+1 650 253 0000',
        website_url: 'https://www.example.com',
      },
    } as typeof form);
    expect(body.is_optimized_for_quality).toBe(false);
    expect(body).not.toHaveProperty('context_card');
    expect(body.thank_you_page).toEqual({
      title: 'Thanks!',
      body: 'Call us.',
      button_text: 'Call',
      button_type: 'CALL_BUSINESS',
      country_code: 'US',
      business_phone_number: '+1 650 253 0000',
    });
  });
});
