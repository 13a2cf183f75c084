// The page's translations for the browser (Babel domain "js", extracted from these scripts), keyed by
// the English text, come as a JSON data block (the Content-Security-Policy forbids inline scripts).
// A message with plural forms comes as the list of its forms, keyed by its English singular.
// A bundled page's scripts come written in its language and need none, but for the few messages they
// could not write, which each file of the bundle adds here as it runs (companion/web/bundles.py).
// A message missing from them all is shown as written, in English: never blank.
const strings = Object.assign(globalThis.companionStrings ??= {},
  JSON.parse(document.getElementById('i18n')?.textContent || '{}'));

// The message in the page's language, its %(name)s fields filled from params; a field that is a
// message itself ({text, params}: the rules' refusal quoted by the verify page) is translated too.
export function t(message, params = {}) {
  const translated = strings[message];
  return fill(typeof translated === 'string' ? translated : message || '', params);
}

function fill(template, params) {
  return template.replace(/%\((\w+)\)s/g, (_, name) => {
    const value = params[name];
    return value && typeof value === 'object' && typeof value.text === 'string'
      ? t(value.text, value.params || {}) : String(value ?? '');
  });
}

// Which plural form a count takes, by the page's language (gettext's Plural-Forms of the catalogues):
// French says "0 point" and "1 point", English "0 points" and "1 point".
const pluralForm = {
  fr: (count) => (count > 1 ? 1 : 0),
  en: (count) => (count === 1 ? 0 : 1),
};

// A message that counts something, in the page's language: the singular or the plural form
// (ngettext). The count fills %(count)s unless params give it another name.
export function tn(singular, plural, count, params = {}) {
  const language = document.documentElement.lang in pluralForm ? document.documentElement.lang : 'en';
  const forms = Array.isArray(strings[singular]) ? strings[singular] : [singular, plural];
  const form = forms[Math.min(pluralForm[language](Number(count)), forms.length - 1)] || forms[0];
  return fill(form, { count, ...params });
}

// Marks a message for extraction where it is picked before t() is called (tables, alternatives):
// the extractor only reads a string written directly as t()'s first argument.
export const N_ = (message) => message;

// "Label:" in the page's language: French puts a no-break space before the colon ("Mode :").
export const withColon = (label) => t('%(label)s:', { label });
