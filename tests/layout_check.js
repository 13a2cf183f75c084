// Measures the rendered page for tests/test_layout.py: what sticks out sideways, controls too small
// to hit, boxes that overlap, text that is cut or too small. Returns plain data; the test decides.
({ minText, mainSelectors, mainText, tv, bigHost }) => {
  const viewportWidth = document.documentElement.clientWidth;
  const CONTROLS = 'button, a[href], input:not([type=hidden]), select, textarea, summary, [role=button]';
  const SCROLLING = new Set(['hidden', 'clip', 'auto', 'scroll']);

  const describe = (node) => {
    const classes = typeof node.className === 'string' && node.className.trim()
      ? `.${node.className.trim().split(/\s+/).join('.')}` : '';
    const text = (node.innerText || node.value || node.getAttribute?.('aria-label') || '').trim().replace(/\s+/g, ' ');
    return `${node.tagName.toLowerCase()}${classes} «${text.slice(0, 40)}»`;
  };
  const hiddenByStyle = (node) => {
    // checkVisibility: also false inside a closed <details>, whose content keeps its boxes unpainted.
    if (!node.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true })) {
      return true;
    }
    for (let at = node; at && at.nodeType === 1; at = at.parentElement) {
      const style = getComputedStyle(at);
      if (style.display === 'none' || style.visibility === 'hidden' || Number(style.opacity) === 0) return true;
      if (at.classList.contains('visually-hidden')) return true;
    }
    return false;
  };
  // The part of a box that can be seen: boxes that scroll or clip cut their content to their padding box.
  const clipOf = (node) => {
    let clip = { left: -Infinity, top: -Infinity, right: Infinity, bottom: Infinity };
    for (let at = node.parentElement; at && at !== document.documentElement; at = at.parentElement) {
      const style = getComputedStyle(at);
      if (SCROLLING.has(style.overflowX) || SCROLLING.has(style.overflowY)) {
        const box = at.getBoundingClientRect();
        const left = box.left + at.clientLeft;
        const top = box.top + at.clientTop;
        clip = { left: Math.max(clip.left, left), top: Math.max(clip.top, top),
          right: Math.min(clip.right, left + at.clientWidth), bottom: Math.min(clip.bottom, top + at.clientHeight) };
      }
    }
    return clip;
  };
  const intersect = (a, b) => ({ left: Math.max(a.left, b.left), top: Math.max(a.top, b.top),
    right: Math.min(a.right, b.right), bottom: Math.min(a.bottom, b.bottom) });
  const area = (r) => Math.max(0, r.right - r.left) * Math.max(0, r.bottom - r.top);

  // Controls: their own box; the text inside a control belongs to the control.
  const controls = [...document.querySelectorAll(CONTROLS)].filter((node) => {
    if (hiddenByStyle(node)) return false;
    const box = node.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  });
  const small = [];
  for (const node of controls) {
    let box = node.getBoundingClientRect();
    // A check box or radio button is hit through its label.
    if (node.matches('input[type=checkbox], input[type=radio]') && node.closest('label')) {
      box = node.closest('label').getBoundingClientRect();
    }
    if (box.width < 43.5 || box.height < 43.5) {
      small.push(`${describe(node)} ${Math.round(box.width)}×${Math.round(box.height)}`);
    }
  }

  // Atoms: controls, images, and each line of text outside the controls.
  const atoms = [];
  for (const node of controls) {
    if (node.parentElement?.closest(CONTROLS)) continue;
    atoms.push({ owner: node, rect: node.getBoundingClientRect(), what: describe(node), text: false });
  }
  for (const node of document.querySelectorAll('img, svg, canvas')) {
    if (node.closest(CONTROLS) || hiddenByStyle(node)) continue;
    const box = node.getBoundingClientRect();
    if (box.width > 0 && box.height > 0) atoms.push({ owner: node, rect: box, what: describe(node), text: false });
  }
  const tooSmallText = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  let textId = 0;
  for (let text = walker.nextNode(); text; text = walker.nextNode()) {
    const owner = text.parentElement;
    if (!text.data.trim() || !owner || owner.closest('script, style, template, option')) continue;
    if (hiddenByStyle(owner)) continue;
    const range = document.createRange();
    range.selectNodeContents(text);
    const lines = [...range.getClientRects()].filter((r) => r.width > 0.5 && r.height > 0.5);
    if (!lines.length) continue;
    // The text on a control (a card's caption on its button) must be as readable as any other.
    const size = parseFloat(getComputedStyle(owner).fontSize);
    if (size < minText - 0.01) tooSmallText.push(`${describe(owner)} ${size.toFixed(1)}px`);
    if (owner.closest(CONTROLS)) continue;  // for overlaps, the control's box stands for its text
    textId += 1;
    for (const line of lines) atoms.push({ owner, rect: line, what: describe(owner), text: textId });
  }

  // Sideways: the page, and any box that reaches past the right edge.
  const sideways = [];
  const pageWidth = document.documentElement.scrollWidth;
  if (pageWidth > viewportWidth) sideways.push(`the page is ${pageWidth}px wide in ${viewportWidth}px`);
  for (const atom of atoms) {
    const seen = intersect(atom.rect, clipOf(atom.owner));
    if (area(seen) > 0 && (atom.rect.right > viewportWidth + 1 || atom.rect.left < -1)) {
      sideways.push(`${atom.what} spans ${Math.round(atom.rect.left)}–${Math.round(atom.rect.right)}px`);
    }
  }

  // Cut: a box whose content is wider than it and which clips or scrolls it sideways; a list
  // number that falls outside the box that clips it.
  const cut = [];
  for (const node of document.body.querySelectorAll('*')) {
    if (node.matches('input, select, textarea') || hiddenByStyle(node)) continue;
    const style = getComputedStyle(node);
    if (SCROLLING.has(style.overflowX) && node.scrollWidth > node.clientWidth + 1) {
      cut.push(`${describe(node)} shows ${node.clientWidth}px of ${node.scrollWidth}px`);
    }
    if (node.tagName === 'LI' && style.display === 'list-item' && style.listStylePosition === 'outside'
        && style.listStyleType !== 'none') {
      const list = node.parentElement;
      const items = [...list.children];
      const start = list.tagName === 'OL' ? (list.start || 1) : 1;
      const widest = list.tagName === 'OL' ? `${Math.max(Math.abs(start), Math.abs(start + items.length - 1))}. ` : '• ';
      const context = document.createElement('canvas').getContext('2d');
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const markerWidth = context.measureText(widest).width;
      const left = node.getBoundingClientRect().left;
      const room = left - Math.max(0, clipOf(node).left);
      if (markerWidth > room + 1) cut.push(`${describe(node)}: its number needs ${Math.round(markerWidth)}px, has ${Math.round(room)}px`);
    }
  }

  // A host screen on a laptop or a TV: nothing of the game under another panel (the seats, the QR
  // code), nothing past its area's edges (a column of a TV layout that ran out of room lands under
  // the next panel). Not on a phone, where the panels stack and Chakart's board bleeds to the edges.
  const covered = [];
  const gameArea = bigHost && document.querySelector('.host-grid .game-area');
  if (gameArea && !hiddenByStyle(gameArea)) {
    const stage = gameArea.closest('.panel');
    const bounds = gameArea.getBoundingClientRect();
    const panels = [...document.querySelectorAll('.host-grid > .panel')]
      .filter((panel) => panel !== stage && !hiddenByStyle(panel))
      .map((panel) => ({ panel, rect: panel.getBoundingClientRect() }));
    for (const atom of atoms) {
      if (!stage.contains(atom.owner)) continue;
      const rect = intersect(atom.rect, clipOf(atom.owner));
      if (area(rect) <= 0) continue;
      if (gameArea.contains(atom.owner) && (rect.right > bounds.right + 1 || rect.left < bounds.left - 1)) {
        covered.push(`${atom.what} spans ${Math.round(rect.left)}–${Math.round(rect.right)}px, out of the game's `
          + `${Math.round(bounds.left)}–${Math.round(bounds.right)}px`);
      }
      for (const { panel, rect: under } of panels) {
        if (area(intersect(rect, under)) > 0) covered.push(`${atom.what} lies under ${describe(panel).slice(0, 40)}`);
      }
    }
    if (gameArea.scrollWidth > gameArea.clientWidth + 1) {
      covered.push(`${describe(gameArea).slice(0, 40)} needs ${gameArea.scrollWidth}px of ${gameArea.clientWidth}px`);
    }
  }

  // A bar fixed to the screen (a phone's next action) lies over the page by design: what it covers
  // scrolls out from under it, as long as the page keeps room for it under its end.
  const fixedOf = (node) => {
    for (let at = node; at && at.nodeType === 1; at = at.parentElement) {
      if (getComputedStyle(at).position === 'fixed') return at;
    }
    return null;
  };
  for (const atom of atoms) atom.bar = fixedOf(atom.owner);
  const bars = [...new Set(atoms.map((atom) => atom.bar).filter(Boolean))];
  // (what a scrolling box clips, such as the end of a log, does not count)
  const inFlow = atoms.filter((atom) => !atom.bar).map((atom) => ({ ...atom, rect: intersect(atom.rect, clipOf(atom.owner)) }))
    .filter((atom) => area(atom.rect) > 0);
  const last = inFlow.reduce((low, atom) => (!low || atom.rect.bottom > low.rect.bottom ? atom : low), null);
  const pageEnd = last ? last.rect.bottom + window.scrollY : 0;
  for (const bar of bars) {
    const room = document.documentElement.scrollHeight - pageEnd;
    if (room < bar.getBoundingClientRect().height - 1) {
      covered.push(`${last.what} stays under ${describe(bar).slice(0, 40)}: ${Math.round(room)}px of room for `
        + `${Math.round(bar.getBoundingClientRect().height)}px`);
      }
    }

  // Every control of a bar fixed to the screen lies wholly inside the screen and inside the bar's own box,
  // not only its first: a bar held to a quarter of the screen cut off Arkade's "saucer hit" and "End my turn".
  const barControls = [];
  const fixedBars = [...document.querySelectorAll('.next-action')]
    .filter((node) => getComputedStyle(node).position === 'fixed' && !hiddenByStyle(node));
  for (const bar of fixedBars) {
    for (const node of controls.filter((control) => bar.contains(control))) {
      const box = node.getBoundingClientRect();
      const seen = intersect(intersect(box, clipOf(node)),
        { left: 0, top: 0, right: viewportWidth, bottom: window.innerHeight });
      if (seen.top > box.top + 1 || seen.bottom < box.bottom - 1 || seen.left > box.left + 1 || seen.right < box.right - 1) {
        barControls.push(`${describe(node)} shows ${Math.round(area(seen) / Math.max(1, area(box)) * 100)}% of itself `
          + `(${Math.round(box.top)}–${Math.round(box.bottom)}px in ${window.innerHeight}px)`);
      }
    }
  }

  // Panels: the page's top-level boxes (a host screen's join panel, stage and seats). No two of them
  // overlap, and on a TV or a laptop nothing drawn in one lies over another (Rayman's setup was drawn
  // over the QR code and the address on a TV).
  const panelOverlaps = [];
  const page = document.querySelector('main');
  const topPanels = [...(page?.children || [])]
    .flatMap((node) => (node.matches('.host-grid, #phone, .seat-view') ? [...node.children] : [node]))
    .filter((node) => !hiddenByStyle(node) && area(node.getBoundingClientRect()) > 0)
    .map((panel) => ({ panel, rect: panel.getBoundingClientRect() }));
  for (let i = 0; i < topPanels.length; i += 1) {
    for (let j = i + 1; j < topPanels.length; j += 1) {
      const both = intersect(topPanels[i].rect, topPanels[j].rect);
      if (both.right - both.left > 1 && both.bottom - both.top > 1) {
        panelOverlaps.push(`${describe(topPanels[i].panel).slice(0, 40)} and ${describe(topPanels[j].panel).slice(0, 40)} `
          + `overlap by ${Math.round(both.right - both.left)}×${Math.round(both.bottom - both.top)}px`);
      }
    }
  }
  if (bigHost || tv) {
    for (const atom of atoms) {
      const own = topPanels.find(({ panel }) => panel.contains(atom.owner));
      const rect = intersect(atom.rect, clipOf(atom.owner));
      if (!own || area(rect) <= 0) continue;
      for (const { panel, rect: other } of topPanels) {
        const both = intersect(rect, other);
        if (panel !== own.panel && both.right - both.left > 1 && both.bottom - both.top > 1) {
          panelOverlaps.push(`${atom.what} is drawn over ${describe(panel).slice(0, 40)}`);
        }
      }
    }
  }

  // Overlaps: two atoms (neither inside the other) that cover each other by more than a sliver.
  const overlaps = [];
  const seen = atoms.map((atom) => ({ ...atom, rect: intersect(atom.rect, clipOf(atom.owner)) }))
    .filter((atom) => area(atom.rect) > 0);
  for (let i = 0; i < seen.length; i += 1) {
    for (let j = i + 1; j < seen.length; j += 1) {
      const a = seen[i];
      const b = seen[j];
      if (a.text && a.text === b.text) continue;
      if (a.bar !== b.bar) continue;
      if (a.owner.contains(b.owner) || b.owner.contains(a.owner)) {
        if (a.text || b.text || a.owner === b.owner) continue;
      }
      const both = intersect(a.rect, b.rect);
      const width = both.right - both.left;
      const height = both.bottom - both.top;
      const lowest = Math.min(a.rect.bottom - a.rect.top, b.rect.bottom - b.rect.top);
      if (width > 3 && height > Math.max(3, 0.25 * lowest)) {
        overlaps.push(`${a.what} and ${b.what} overlap by ${Math.round(width)}×${Math.round(height)}px`);
      }
    }
  }

  // The TV's main text: each selector must show something, at least mainText px.
  const main = [];
  for (const selector of mainSelectors) {
    const shown = [...document.querySelectorAll(selector)].filter((node) => !hiddenByStyle(node)
      && node.getBoundingClientRect().width > 0);
    if (!shown.length) main.push(`${selector}: nothing shown`);
    for (const node of shown) {
      const size = parseFloat(getComputedStyle(node).fontSize);
      if (size < mainText - 0.01) main.push(`${describe(node)} ${size.toFixed(1)}px`);
    }
  }
  // The TV is never scrolled, not even inside a panel: only the logs of what happened scroll.
  const scrolled = [];
  if (tv) {
    const LOGS = '.history, .ak-history ol, .ax-history ol, .rm-history ul, .uv-history, .history-list';
    for (const node of document.body.querySelectorAll('*')) {
      const style = getComputedStyle(node);
      if ((style.overflowY === 'auto' || style.overflowY === 'scroll') && node.scrollHeight > node.clientHeight + 1
          && !node.matches(LOGS) && !hiddenByStyle(node)) {
        scrolled.push(`${describe(node)} shows ${node.clientHeight}px of ${node.scrollHeight}px`);
      }
    }
  }
  return {
    scrolled, bar: barControls, covered: [...new Set(covered)], panels: [...new Set(panelOverlaps)],
    small, sideways, cut, overlaps: [...new Set(overlaps)], tooSmallText: [...new Set(tooSmallText)], main,
    height: document.documentElement.scrollHeight, viewportHeight: window.innerHeight,
  };
}
