import { randomUUID } from 'node:crypto';
import { clock } from '../../shared/core/clock.ts';

/** Example requests shared by the unit tests of the body builders and the integration tests. */
/** The campaign of the contract's example request (fixture mutate-create-search-campaign.request.json). */
export const winterCampaign = (userId: string) => ({
  userId,
  objective: 'TRAFFIC',
  campaignName: 'Winter Tune-Up 2026',
  dailyBudget: '50',
  startDate: clock.today(1),
  endDate: clock.today(90),
  keywords: [
    { text: 'furnace repair', match_type: 'EXACT' },
    { text: 'heating repair near me', match_type: 'PHRASE' },
  ],
  negativeKeywords: [{ text: 'free', match_type: 'BROAD' }],
  proximityTargeting: [{ radius_units: 'MILES', radius: 15, longitude_in_micro_degrees: -104990300, latitude_in_micro_degrees: 39739200 }],
  languages: ['en'],
  ads: [
    {
      url: 'https://www.example.com/heating-repair',
      headlines: ['Furnace Repair in Denver', 'Same-Day Heating Service', 'Licensed & Insured Techs'],
      descriptions: [
        'Fast, reliable furnace and heating repair. Book online or call for a same-day visit.',
        'Upfront pricing, no overtime fees. Serving the Denver metro area since 1998.',
      ],
      headlineIndexToPinFirstSlot: 0,
    },
  ],
  callouts: ['24/7 Emergency Service'],
  phoneNumber: '(303) 555-0147',
  phoneNumberCountryCode: 'US',
  utmParams: 'utm_source=google&utm_medium=cpc&utm_campaign=winter_tune_up_2026',
});

/** A valid form; its name is unique, so each test finds its own creation among every file's. */
export const validForm = (userId: string) => ({
  userId,
  leadsFormName: `Autumn offer – quote request ${randomUUID().slice(0, 8)}`,
  language: 'EN_US',
  form_type: 'HIGHER_INTENT',
  privacyPolicyUrl: 'https://www.example.com/privacy',
  privacyPolicyName: 'Privacy policy',
  questionPageCustomHeadline: 'Tell us about you',
  intro: { title: 'Get a free quote', style: 'LIST_STYLE', content: ['Takes 30 seconds', 'No obligation'] },
  leadFormQuestions: [
    { type: 'FULL_NAME' },
    { type: 'EMAIL' },
    { type: 'PHONE' },
    {
      type: 'CUSTOM',
      label: 'Which product interests you?',
      options: [
        { value: 'Sofa', key: 'sofa' },
        { value: 'Table', key: 'table' },
      ],
    },
  ],
  thankYouPage: {
    title: 'Thanks!',
    body: 'We will call you within 24 hours.',
    button_text: 'Visit website',
    button_type: 'VIEW_WEBSITE',
    website_url: 'https://www.example.com',
  },
});

/** The leadgen_forms body validForm maps to (the platform's names, questions numbered in order). */
export const expectedLeadgenBody = (name: string) => ({
  name,
  locale: 'EN_US',
  is_optimized_for_quality: true,
  privacy_policy: { url: 'https://www.example.com/privacy', link_text: 'Privacy policy' },
  question_page_custom_headline: 'Tell us about you',
  context_card: { title: 'Get a free quote', style: 'LIST_STYLE', content: ['Takes 30 seconds', 'No obligation'] },
  questions: [
    { type: 'FULL_NAME', key: 'q1' },
    { type: 'EMAIL', key: 'q2' },
    { type: 'PHONE', key: 'q3' },
    {
      type: 'CUSTOM',
      key: 'q4',
      label: 'Which product interests you?',
      options: [
        { value: 'Sofa', key: 'sofa' },
        { value: 'Table', key: 'table' },
      ],
    },
  ],
  thank_you_page: {
    title: 'Thanks!',
    body: 'We will call you within 24 hours.',
    button_text: 'Visit website',
    button_type: 'VIEW_WEBSITE',
    website_url: 'https://www.example.com',
  },
});
