/**
 * Brave's `search_lang` values, and the language tags people write mapped onto them (issue 28
 * item 4). Brave takes only its own list (API reference, web search "Language codes", the same
 * list as @brave/brave-search-mcp-server's `search_lang` enum) and answers 422 to anything else —
 * `ja`, `zh` and `zh-TW` among them, since Brave spells them `jp`, `zh-hans` and `zh-hant`.
 *
 * A tag is read as BCP 47 with the platform's CLDR data (`Intl.Locale`: `ja_JP` and `JA` alike,
 * deprecated codes such as `iw` canonicalised, missing script and region filled in by likely
 * subtags): Chinese by script (Hans/Hant: `zh`, `zh-CN`, `zh-SG` → zh-hans; `zh-TW`, `zh-HK` →
 * zh-hant), Portuguese and English by region (`pt`, `pt-BR` → pt-br, other regions → pt-pt;
 * `en-GB` → en-gb, other regions → en), Japanese → jp, Norwegian `no` → nb, else the bare language.
 */

/** Brave's accepted `search_lang` values. */
export const BRAVE_SEARCH_LANGS = [
  'ar',
  'eu',
  'bn',
  'bg',
  'ca',
  'zh-hans',
  'zh-hant',
  'hr',
  'cs',
  'da',
  'nl',
  'en',
  'en-gb',
  'et',
  'fi',
  'fr',
  'gl',
  'de',
  'gu',
  'he',
  'hi',
  'hu',
  'is',
  'it',
  'jp',
  'kn',
  'ko',
  'lv',
  'lt',
  'ms',
  'ml',
  'mr',
  'nb',
  'pl',
  'pt-br',
  'pt-pt',
  'pa',
  'ro',
  'ru',
  'sr',
  'sk',
  'sl',
  'es',
  'sv',
  'ta',
  'te',
  'th',
  'tr',
  'uk',
  'vi',
] as const;

const ACCEPTED = new Set<string>(BRAVE_SEARCH_LANGS);

/** Brave's code for a base language where it differs from the tag's own. */
const RENAMED: Record<string, string> = { ja: 'jp', no: 'nb' };

/**
 * Brave's `search_lang` for `tag` (any case, `-` or `_`), or undefined when Brave has no code for
 * its language (or `tag` is no language tag). Pure; never throws.
 */
export function braveSearchLang(tag: string): string | undefined {
  const lower = tag.trim().toLowerCase().replace(/_/g, '-');
  if (ACCEPTED.has(lower)) return lower;
  let locale: Intl.Locale;
  try {
    locale = new Intl.Locale(lower).maximize();
  } catch {
    return undefined;
  }
  const { language, script, region } = locale;
  let code: string;
  if (language === 'zh') code = script === 'Hant' ? 'zh-hant' : 'zh-hans';
  else if (language === 'pt') code = region === 'BR' ? 'pt-br' : 'pt-pt';
  else if (language === 'en') code = region === 'GB' ? 'en-gb' : 'en';
  else code = RENAMED[language] ?? language;
  return ACCEPTED.has(code) ? code : undefined;
}

/** The refusal of a tag Brave has no code for: names the argument and every accepted value. */
export function unknownSearchLang(name: string, tag: string): string {
  return `${name}: Brave Search has no language ${JSON.stringify(tag)}; use one of ${BRAVE_SEARCH_LANGS.join(', ')} (ja, zh, zh-TW, pt and the like are mapped to these)`;
}
