// Translated strings come from the page's JSON data block (rendered by Flask-Babel).
const strings = JSON.parse(document.getElementById('i18n')?.textContent || '{}');

export function t(key, params = {}) {
  const template = strings[key] ?? key;
  return template.replace(/%\((\w+)\)s/g, (_, name) => String(params[name] ?? ''));
}
