/**
 * The demo user's platform accounts, known to both the sandboxes and the seeded demo user.
 * These tokens are sandbox-only values; no real platform accepts them.
 */
export const DEMO_USER_ID = 'demo-user';
export const DEMO_TENANT_NAME = 'demo';

export const DEMO_CONNECTIONS = {
  social: {
    accessToken: 'EAAsandboxDemoUserToken0000000000',
    adAccountId: '284756109384756',
    pageId: '104857392018465',
  },
  searchads: {
    refreshToken: '1//sandbox-demo-refresh-token',
    customerId: '1234567890',
  },
  professional: {
    accessToken: 'AQVsandboxDemoProfessionalToken',
    adAccountId: '500000001',
  },
} as const;

/** App credentials the sandboxes expect when none are configured (no developer token: Google retired them, so none is sent by default). */
export const SANDBOX_APP_CREDENTIALS = {
  SOCIAL_APP_ID: '1234567890123456',
  SOCIAL_APP_SECRET: 'sandbox-social-app-secret',
  SOCIAL_WEBHOOK_VERIFY_TOKEN: 'sandbox-social-verify-token',
  SEARCHADS_CLIENT_ID: 'sandbox-client-id.apps.example',
  SEARCHADS_CLIENT_SECRET: 'sandbox-client-secret',
  PROFESSIONAL_CLIENT_ID: 'sandbox-professional-client',
  PROFESSIONAL_CLIENT_SECRET: 'sandbox-professional-secret',
} as const;

/** A lead form for `/social/create_lead_form` (full name and e-mail), as the walk-throughs, tests and benchmarks make one. */
export const demoLeadForm = (userId: string, leadsFormName: string) => ({
  userId,
  leadsFormName,
  language: 'EN_US',
  form_type: 'HIGHER_INTENT',
  privacyPolicyUrl: 'https://www.example.com/privacy',
  privacyPolicyName: 'Privacy policy',
  leadFormQuestions: [{ type: 'FULL_NAME' }, { type: 'EMAIL' }],
  thankYouPage: {
    title: 'Thanks!',
    body: 'We will call you.',
    button_text: 'Visit website',
    button_type: 'VIEW_WEBSITE',
    website_url: 'https://www.example.com',
  },
});
