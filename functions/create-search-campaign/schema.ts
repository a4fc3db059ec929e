import * as z from 'zod';
import { day } from '../../shared/schemas/example-dates.ts';

/** The operation's own request and answer schemas: the handler validates with them, api.ts documents them. */
export const WINTER_CAMPAIGN = {
  userId: 'demo-user',
  objective: 'TRAFFIC',
  campaignName: 'Winter Tune-Up 2026',
  dailyBudget: '50',
  startDate: day(1),
  endDate: day(90),
  keywords: [{ text: 'furnace repair', match_type: 'EXACT' }],
  proximityTargeting: [{ radius_units: 'MILES', radius: 15, longitude_in_micro_degrees: -104990300, latitude_in_micro_degrees: 39739200 }],
  languages: ['en'],
  ads: [
    {
      url: 'https://www.example.com/heating-repair',
      headlines: ['Furnace Repair in Denver', 'Same-Day Heating Service', 'Licensed & Insured Techs'],
      descriptions: ['Fast, reliable furnace and heating repair.', 'Upfront pricing, no overtime fees.'],
      headlineIndexToPinFirstSlot: 0,
    },
  ],
  callouts: ['24/7 Emergency Service'],
  phoneNumber: '(303) 555-0147',
  phoneNumberCountryCode: 'US',
};

export const createSearchCampaignResultSchema = z.object({
  campaignResourceName: z.string(),
  adGroupResourceName: z.string(),
  additionalMessage: z.string(),
});
