// Small DOM helpers: every piece of player text goes through textContent, never HTML.
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === 'class') node.className = value;
    else if (name === 'text') node.textContent = value;
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(name, value === true ? '' : value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

// A plain button with its label as text.
export function button(text, onclick, extra = '') {
  return el('button', { type: 'button', class: extra, text, onclick });
}

export function seatName(view, seatId) {
  return view.table.seats.find((seat) => seat.id === seatId)?.name ?? `#${seatId}`;
}

export function seatColour(view, seatId) {
  return view.table.seats.find((seat) => seat.id === seatId)?.colour ?? '#888';
}

export function showError(node, message) {
  node.textContent = message || '';
  node.hidden = !message;
}

export const reducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;
