/** Names of the editions in their own language, for the language switch of the docs page. */
export const LANGUAGE_NAMES: Record<string, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  it: 'Italiano',
  nl: 'Nederlands',
  'pt-br': 'Português (Brasil)',
  pl: 'Polski',
  sv: 'Svenska',
  ja: '日本語',
  'zh-cn': '简体中文',
  ko: '한국어',
};
