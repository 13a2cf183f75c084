// The page's translations for the browser (Babel domain "js", extracted from these scripts), keyed by
// the English text, come as a JSON data block (the Content-Security-Policy forbids inline scripts).
const strings = JSON.parse(document.getElementById('i18n')?.textContent || '{}');

// The message in the page's language, its %(name)s fields filled from params; a field that is a
// message itself ({text, params}: the rules' refusal quoted by the verify page) is translated too.
export function t(message, params = {}) {
  const template = strings[message] || message || '';
  return template.replace(/%\((\w+)\)s/g, (_, name) => {
    const value = params[name];
    return value && typeof value === 'object' && typeof value.text === 'string'
      ? t(value.text, value.params || {}) : String(value ?? '');
  });
}

// Marks a message for extraction where it is picked before t() is called (tables, alternatives):
// the extractor only reads a string written directly as t()'s first argument.
export const N_ = (message) => message;

// "Label:" in the page's language: French puts a no-break space before the colon ("Mode :").
export const withColon = (label) => t('%(label)s:', { label });
