/** The keys of a customer-file audience's schema: the platform's names for the contact fields a row may hold. */
export type ContactKey = 'EMAIL' | 'PHONE' | 'GEN' | 'DOBY' | 'DOBM' | 'DOBD' | 'FN' | 'LN' | 'FI' | 'CT' | 'ST' | 'ZIP' | 'COUNTRY' | 'MADID' | 'EXTERN_ID';
