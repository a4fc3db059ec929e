/** Language codes → `languageConstants/<id>` (docs/platforms.md, "Search ads"), after normalising the code. */
const LANGUAGE_IDS: Readonly<Record<string, number>> = {
  en: 1000,
  de: 1001,
  fr: 1002,
  es: 1003,
  it: 1004,
  ja: 1005,
  da: 1009,
  nl: 1010,
  fi: 1011,
  ko: 1012,
  no: 1013,
  pt: 1014,
  sv: 1015,
  zh_CN: 1017,
  zh_TW: 1018,
  ar: 1019,
  bg: 1020,
  cs: 1021,
  el: 1022,
  hi: 1023,
  hu: 1024,
  id: 1025,
  is: 1026,
  iw: 1027,
  lv: 1028,
  lt: 1029,
  pl: 1030,
  ru: 1031,
  ro: 1032,
  sk: 1033,
  sl: 1034,
  sr: 1035,
  uk: 1036,
  tr: 1037,
  ca: 1038,
  hr: 1039,
  vi: 1040,
  ur: 1041,
  tl: 1042,
  et: 1043,
  th: 1044,
};

const ALIASES: Readonly<Record<string, string>> = { he: 'iw', fil: 'tl', nb: 'no', nn: 'no', zh: 'zh_CN', zh_cn: 'zh_CN', zh_tw: 'zh_TW', zh_hk: 'zh_TW' };

/** The constant's id, or undefined for a code the platform does not target. */
export function languageConstantId(code: string): number | undefined {
  const lowered = code.trim().toLowerCase().replace(/-/g, '_');
  const normalised = ALIASES[lowered] ?? (lowered.startsWith('zh_') ? lowered : (lowered.split('_')[0] as string));
  return LANGUAGE_IDS[normalised] ?? LANGUAGE_IDS[ALIASES[normalised] ?? ''];
}
