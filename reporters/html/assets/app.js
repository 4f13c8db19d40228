// Ananke's HTML report: renders the data of the page's #data element.
// Plain DOM, no library; text is always set as text, never as markup.
(function () {
  'use strict';
  const data = JSON.parse(document.getElementById('data').textContent);
  const byId = new Map(data.tests.map((t) => [t.id, t]));
  const LABEL = { pass: 'PASS', fail: 'FAIL', error: 'ERROR', skipped: 'SKIP', skip: 'SKIP', warn: 'WARN' };
  const FILTERS = ['all', 'pass', 'fail', 'error', 'skipped', 'flaky', 'warned', 'not made'];
  const FOLD_LINES = 12;
  const view = { filter: 'all', tag: '', query: '', sort: 'order' };
  let cur = null; // the test shown
  let seqs = []; // the sorted sequence numbers of the events of the test shown

  // h makes an element: attributes (on* are listeners), then children;
  // strings become text nodes.
  function h(tag, attrs, ...kids) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
      else el.setAttribute(k, v === true ? '' : String(v));
    }
    return fill(el, kids, false);
  }
  // fill puts children in an element (replacing its own when replace),
  // leaving out undefined, null and false.
  function fill(el, kids, replace) {
    const nodes = kids.flat(Infinity).filter((k) => k !== undefined && k !== null && k !== false && k !== '')
      .map((k) => (k instanceof Node ? k : String(k)));
    if (replace) el.replaceChildren(...nodes);
    else el.append(...nodes);
    return el;
  }
  const enc = encodeURIComponent;

  function dur(ms) {
    if (ms < 1000) return ms + ' ms';
    if (ms < 60000) return (ms / 1000).toFixed(1) + ' s';
    return Math.floor(ms / 60000) + ' min ' + Math.round((ms % 60000) / 1000) + ' s';
  }
  function at(ms) { return '+' + dur(ms); }
  function size(n) {
    if (n < 1024) return n + ' B';
    if (n < 1 << 20) return (n / 1024).toFixed(n < 10240 ? 1 : 0) + ' KiB';
    return (n / (1 << 20)).toFixed(1) + ' MiB';
  }
  // clean shows control characters (an agent's ANSI escapes) as escapes.
  function clean(s) {
    return String(s).replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g,
      (c) => '\\x' + c.charCodeAt(0).toString(16).padStart(2, '0'));
  }

  // pretty indents JSON text without parsing it, so that every number and
  // string shows exactly as received.
  function pretty(s) {
    let out = '', ind = 0, str = false, esc = false;
    const nl = () => '\n' + '  '.repeat(Math.max(ind, 0));
    for (let i = 0; i < s.length; i++) {
      const c = s[i];
      if (str) {
        out += c;
        if (esc) esc = false;
        else if (c === '\\') esc = true;
        else if (c === '"') str = false;
        continue;
      }
      if (c === ' ' || c === '\n' || c === '\t' || c === '\r') continue;
      if (c === '"') { str = true; out += c; continue; }
      if (c === '{' || c === '[') {
        let j = i + 1;
        while (j < s.length && ' \n\t\r'.includes(s[j])) j++;
        if (s[j] === (c === '{' ? '}' : ']')) { out += c + s[j]; i = j; continue; }
        ind++; out += c + nl(); continue;
      }
      if (c === '}' || c === ']') { ind--; out += nl() + c; continue; }
      if (c === ',') { out += ',' + nl(); continue; }
      if (c === ':') { out += ': '; continue; }
      out += c;
    }
    return out;
  }

  function badge(status) {
    return h('span', { class: 'badge st-' + status }, LABEL[status] || status.toUpperCase());
  }
  function flag(text, cls) { return h('span', { class: 'flag ' + (cls || '') }, text); }
  // count is '1 check', '2 checks'.
  function count(n, noun) { return n + ' ' + noun + (n === 1 ? '' : 's'); }

  // cutNote says what a cap left out and where the whole is.
  function cutNote(whole) {
    return h('p', { class: 'note cut' }, 'Cut: this is the first part of ' + size(whole) +
      '; the whole is in ' + (cur ? cur.trace_file : 'the trace file') + '.');
  }

  // block shows a text or JSON; a long one shows its first lines with a
  // button that shows all of it.
  function block(text, opts) {
    opts = opts || {};
    const body = opts.json ? pretty(text) : clean(text);
    const lines = body.split('\n');
    const long = lines.length > FOLD_LINES + 2 || body.length > 3000;
    const short = long ? (lines.length > FOLD_LINES + 2 ? lines.slice(0, FOLD_LINES).join('\n') : body.slice(0, 1500)) + '\n…' : body;
    const pre = h('pre', { class: opts.json ? 'code json' : 'code' }, short);
    const wrap = h('div', { class: 'block' }, pre);
    if (long) {
      const more = 'Show all ' + lines.length + (lines.length === 1 ? ' line' : ' lines') + ' (' + size(body.length) + ')';
      const btn = h('button', { type: 'button', class: 'more', 'aria-expanded': 'false' }, more);
      btn.addEventListener('click', () => {
        const open = btn.getAttribute('aria-expanded') === 'true';
        pre.textContent = open ? short : body;
        btn.setAttribute('aria-expanded', String(!open));
        btn.textContent = open ? more : 'Show less';
      });
      wrap.append(btn);
    }
    if (opts.whole) wrap.append(cutNote(opts.whole));
    return wrap;
  }

  function dl(pairs) {
    return h('dl', { class: 'pairs' }, pairs.filter((p) => p[1] !== undefined && p[1] !== null && p[1] !== '' && p[1] !== false)
      .map(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]));
  }

  // modelTokens says what judges and simulated users used; tokens their
  // endpoint did not report are unknown, never zero.
  function modelTokens(m) {
    if (m.unreported && !m.prompt_tokens && !m.completion_tokens) return 'tokens unknown';
    const at = m.unreported ? '≥ ' : '';
    return at + m.prompt_tokens + ' + ' + at + m.completion_tokens + ' tokens' + (m.unreported ? ' (' + m.unreported + ' unreported)' : '');
  }

  // The run: status, totals, where it ran, failed suite hooks, its budget.
  function renderRun() {
    const t = data.totals;
    document.title = 'Ananke report: ' + data.status + ', ' + t.passed + ' of ' + t.total + ' passed';
    const tgt = data.target;
    const totals = [['total', 'Total', t.total], ['passed', 'Passed', t.passed], ['failed', 'Failed', t.failed],
      ['errored', 'Errored', t.errored], ['skipped', 'Skipped', t.skipped], ['flaky', 'Flaky', t.flaky],
      ['warned', 'Warned', t.warned], ['not_made', 'Checks not made', t.not_made || 0], ['pass_rate', 'Pass rate', t.pass_rate + '%']];
    const run = document.getElementById('run');
    fill(run, [
      h('div', { class: 'title' }, h('h1', {}, 'Ananke report'), badge(data.status),
        h('ul', { id: 'totals', class: 'totals' }, totals.map(([k, label, n]) =>
          h('li', { 'data-total': k, class: 'tot-' + k + (n && k !== 'total' && k !== 'pass_rate' ? ' some' : '') },
            h('span', { class: 'n' }, n), h('span', { class: 'k' }, label))))),
      dl([['Started', data.started_at.replace('T', ' ').replace('Z', ' UTC')], ['Duration', dur(data.duration_ms)],
        ['Target', [tgt.type, tgt.agent_card_url && 'card ' + tgt.agent_card_url, tgt.endpoint,
          tgt.command && tgt.command.join(' '), tgt.agent_id && 'agent ' + tgt.agent_id].filter(Boolean).join(' · ')],
        ['Config', data.config], ['Ananke', data.version],
        ['Parallel', data.parallel > 1 && String(data.parallel)],
        ['Shard', data.shard && data.shard.index + ' of ' + data.shard.total],
        ['Fail on flaky', data.fail_on_flaky && 'yes'],
        ['Agent usage', data.usage],
        ['Runs', data.runs],
        ['Quarantined', data.quarantined],
        ['History', data.history],
        ['Models', t.model.requests > 0 && t.model.requests + ' requests, ' + t.model.cache_hits + ' cached, ' + modelTokens(t.model)]]),
      ...(data.advice || []).map((a) => h('div', { class: 'callout advice' }, h('p', {}, clean(a)))),
      ...(data.warnings || []).map((w) => h('div', { class: 'callout st-warn' }, h('p', {}, badge('warn'), ' ', clean(w)))),
      data.attacks && attacksCallout(data.attacks),
      data.variants && variantsCallout(data.variants),
      lab.verdicts.size > 0 && labelsCallout(),
      ...(data.budget || []).map((b) => h('div', { class: 'callout budget st-' + b.status, role: b.status === 'fail' ? 'alert' : null },
        h('p', {}, badge(b.status), ' ', clean(b.message)))),
      ...data.hooks.map((hk) => h('div', { class: 'callout st-error', role: 'alert' },
        h('p', {}, badge('error'), ' ', h('strong', {}, hk.name + ' failed'), ' at ', h('code', {}, hk.source), ' after ' + dur(hk.duration_ms)),
        h('p', { class: 'msg' }, clean(hk.message)), hk.detail && block(hk.detail)))]);
  }

  function matches(t, f) {
    if (f === 'all') return true;
    if (f === 'flaky') return !!t.flaky;
    if (f === 'warned') return !!t.warned;
    if (f === 'not made') return !!t.not_made;
    if (f === 'quarantined') return !!t.quarantine;
    return t.status === f;
  }
  function selected(t) {
    if (view.tag && !(t.tags || []).includes(view.tag)) return false;
    if (!view.query) return true;
    const q = view.query.toLowerCase();
    return t.name.toLowerCase().includes(q) || t.id.toLowerCase().includes(q);
  }

  // The list of tests, its filters and search.
  function renderNav() {
    const nav = document.getElementById('tests');
    const buttons = h('div', { class: 'filters', role: 'group', 'aria-label': 'Filter by status' },
      FILTERS.concat(data.quarantined ? ['quarantined'] : []).map((f) => h('button', { type: 'button', 'data-filter': f, 'aria-pressed': String(f === view.filter),
        onclick: () => { view.filter = f; refreshList(); } }, h('span', { class: 'fl' }, f), ' ', h('span', { class: 'count' }, ''))));
    const tags = new Map();
    for (const t of data.tests) for (const g of t.tags || []) tags.set(g, (tags.get(g) || 0) + 1);
    const tagSel = tags.size ? h('select', { id: 'tag', 'aria-label': 'Filter by tag', onchange: (e) => { view.tag = e.target.value; refreshList(); } },
      h('option', { value: '' }, 'all tags'), [...tags.keys()].sort().map((g) => h('option', { value: g }, g + ' (' + tags.get(g) + ')'))) : null;
    const search = h('input', { id: 'search', type: 'search', placeholder: 'Search name or id', 'aria-label': 'Search tests by name or id',
      oninput: (e) => { view.query = e.target.value.trim(); refreshList(); } });
    // With the agent's usage, the list sorts by what each test cost.
    const sortSel = data.usage ? h('select', { id: 'sort', 'aria-label': 'Sort tests', onchange: (e) => { view.sort = e.target.value; refreshList(); } },
      h('option', { value: 'order' }, 'sort: in order'), h('option', { value: 'cost' }, 'sort: by cost'), h('option', { value: 'tokens' }, 'sort: by tokens')) : null;
    const at = data.attacks;
    if (at) {
      nav.append(h('p', { class: 'attacks-link' }, h('a', { href: '#attacks', id: 'attacks-link' }, badge(at.status), ' Attacks',
        h('span', { class: 'sub' }, ' ' + at.totals.succeeded + ' of ' + count(at.totals.runs, 'run') + ' succeeded'))));
    }
    if (data.variants) nav.append(variantsLink(data.variants));
    nav.append(buttons, h('div', { class: 'find' }, search, tagSel, sortSel), h('p', { id: 'shown', class: 'sub' }), h('ul', { id: 'list' }));
    refreshList();
  }

  function refreshList() {
    const base = data.tests.filter(selected);
    for (const b of document.querySelectorAll('#tests .filters button')) {
      const f = b.dataset.filter;
      b.setAttribute('aria-pressed', String(f === view.filter));
      b.querySelector('.count').textContent = base.filter((t) => matches(t, f)).length;
    }
    const shown = sorted(base.filter((t) => matches(t, view.filter)));
    document.getElementById('shown').textContent = 'Showing ' + shown.length + ' of ' + data.tests.length + ' tests';
    document.getElementById('list').replaceChildren(...shown.map((t) => h('li', {},
      h('a', { href: '#test=' + enc(t.id), class: 'item', 'data-id': t.id, 'aria-current': cur === t ? 'true' : null },
        badge(t.status), h('span', { class: 'name' }, t.name || t.id),
        data.usage && h('span', { class: 'cost', title: t.usage ? t.usage.text : 'skipped' }, t.usage ? t.usage.cell : ''),
        h('span', { class: 'sub' }, t.id + ' · ' + dur(t.duration_ms), t.flaky && ' · flaky', t.warned && ' · warned', t.not_made && ' · ' + count(t.not_made, 'check') + ' not made', t.quarantine && ' · quarantined',
          t.trend && [' ', resultSpark(t.trend, MINI, t.trend.facts)])))));
  }
  // sorted orders the list: as the report does, or by cost or tokens, the
  // highest first and the tests whose figure is unknown last, in order.
  function sorted(tests) {
    if (view.sort === 'order') return tests;
    const key = (t) => (t.usage && t.usage[view.sort === 'cost' ? 'cost_usd' : 'tokens']);
    return tests.map((t, i) => [t, key(t), i]).sort((a, b) =>
      (a[1] == null) - (b[1] == null) || (b[1] ?? 0) - (a[1] ?? 0) || a[2] - b[2]).map((x) => x[0]);
  }

  // Event references: [seq, [first, last], …] as links that reveal them.
  function refLinks(refs, linkable, file) {
    return h('span', { class: 'refs' }, (refs || []).map((r) => {
      const [a, b] = Array.isArray(r) ? r : [r, r];
      const label = a === b ? '#' + a : '#' + a + '–' + b;
      if (!linkable) return h('span', { class: 'ev-off', title: 'in ' + file }, label);
      if (!hasEvent(a, b)) return h('span', { class: 'ev-off', title: 'not in this page; see ' + cur.trace_file }, label);
      const href = '#test=' + enc(cur.id) + '&event=' + a + (a === b ? '' : '-' + b);
      return h('a', { href, class: 'ev-link', onclick: (e) => { e.preventDefault(); if (location.hash !== href) history.pushState(null, '', href); reveal(a, b); } }, label);
    }));
  }
  // hasEvent says whether the page holds an event numbered a to b.
  function hasEvent(a, b) {
    let lo = 0, hi = seqs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (seqs[mid] < a) lo = mid + 1; else hi = mid;
    }
    return lo < seqs.length && seqs[lo] <= b;
  }
  function seqLink(seq) { return seq ? refLinks([seq], true) : null; }

  // renderAssertion shows an assertion; ctx says whose: the test (ctx.test)
  // and the attempt its labels name (ctx.attempt), whether its events are
  // in the page (ctx.linkable) or in which trace file (ctx.file), and
  // whether it opens folded (ctx.fold). A judge's verdicts are a table of
  // its criteria (the page holds them instead of its evidence).
  function renderAssertion(a, ctx) {
    const open = !ctx.fold && (a.status === 'fail' || a.status === 'error' || a.status === 'warn');
    const ev = (a.evidence || []).map((e) => h('li', { class: 'evidence' },
      h('div', { class: 'note' }, clean(e.note), ' ', refLinks(e.event_refs, ctx.linkable, ctx.file)),
      e.call_ref && callCard(findCall(e.call_ref)), e.call && callCard(e.call),
      e.text && block(e.text, { whole: e.text_bytes }),
      e.gap && h('p', { class: 'gap' }, 'idle ' + dur(e.gap.to_ms - e.gap.from_ms) + ' from ' + e.gap.from + ' (' + at(e.gap.from_ms) + ') to ' + e.gap.to + ' (' + at(e.gap.to_ms) + ')')));
    return h('details', { class: 'assertion st-' + a.status, open: open, 'data-id': a.id },
      h('summary', {}, badge(a.status), h('code', { class: 'kind' }, a.kind), a.judge && a.judge.demoted && flag('reported as a warning', 'warn'),
        h('span', { class: 'msg' }, clean(a.message))),
      h('div', { class: 'body' },
        h('p', { class: 'msg full' }, clean(a.message)),
        dl([['ID', h('code', {}, a.id)], ['Source', h('code', {}, a.source)], ['Severity', a.severity], ['Scope', a.scope],
          ['Judge', a.judge && [h('code', { class: 'judge-model' }, a.judge.model || 'unnamed model'), ' · prompt ', h('code', { class: 'prompt-hash' }, a.judge.prompt_hash)]],
          ['Failed in', a.failed_runs && cur.stability && a.failed_runs + ' of ' + cur.stability.attempts.length + ' attempts' + (a.failure_ci ? ' (' + a.failure_ci + ')' : '')]]),
        a.judge && a.judge.demoted && h('p', { class: 'demoted' }, badge('warn'), ' Reported as a warning: ', clean(a.judge.demoted)),
        a.judge && judgeTable(a, ctx),
        (a.expected || a.observed) && h('div', { class: 'eo' },
          h('div', {}, h('div', { class: 'label' }, 'Expected'), h('pre', { class: 'code expected' }, clean(a.expected || ''))),
          h('div', {}, h('div', { class: 'label' }, 'Observed'), h('pre', { class: 'code observed' }, clean(a.observed || '')))),
        ev.length > 0 && h('div', {}, h('div', { class: 'label' }, 'Evidence'), h('ul', { class: 'evidence-list' }, ev)),
        a.event_refs && a.event_refs.length > 0 && h('p', { class: 'events-line' }, 'Events: ', refLinks(a.event_refs, ctx.linkable, ctx.file)),
        a.origins && h('p', { class: 'sub' }, 'Read at ' + a.origins.join(', '))));
  }

  // Labels (docs/reports.md#labelling-judge-verdicts): a reviewer marks
  // each judge's verdict on each criterion agree or disagree, with a note.
  // The marks are kept in the browser's localStorage under the run, so a
  // reload keeps them and another report's stay apart; "Download labels"
  // writes them as an ananke.labels/v1 file, which `ananke judge
  // calibrate` reads (docs/judges.md), and a labels file loads back in.
  // A label names the test, the attempt (0 for a test that ran once, else
  // its place among the test's attempts from 1, as its trace file's), the
  // assertion, its scope and criterion, and the judge's model, prompt
  // hash and verdict.
  const LABELS_SCHEMA = 'ananke.labels/v1';
  const VERDICT = { true: '✓ true', false: '✗ false', inconclusive: '? inconclusive' };
  const lab = { store: 'ananke.labels ' + data.run, verdicts: new Map(), marks: new Map(), kept: true };

  function labelKey(test, attempt, id, criterion) { return JSON.stringify([test, attempt, id, criterion]); }
  // attemptNo is what a label calls a test's attempt i (from 0); shownNo
  // the shown attempt's, whose assertions are the test's.
  function attemptNo(t, i) { return t.stability && t.stability.attempts.length > 1 && i >= 0 ? i + 1 : 0; }
  function shownNo(t) { return t.stability ? attemptNo(t, t.stability.attempts.findIndex((a) => a.shown)) : 0; }
  // indexVerdicts lists the verdicts of assertions of t's attempt, in the
  // page's order: what can be labelled.
  function indexVerdicts(t, list, attempt) {
    for (const a of list || []) {
      for (const c of (a.judge && a.judge.criteria) || []) {
        const key = labelKey(t.id, attempt, a.id, c.criterion);
        if (!lab.verdicts.has(key)) {
          lab.verdicts.set(key, { test: t.id, attempt, assertion: a.id, scope: a.scope, criterion: c.criterion,
            judge_model: a.judge.model, prompt_hash: a.judge.prompt_hash, verdict: c.verdict });
        }
      }
    }
  }
  for (const t of data.tests) {
    indexVerdicts(t, t.assertions, shownNo(t));
    if (t.stability) t.stability.attempts.forEach((at, i) => indexVerdicts(t, at.failed, attemptNo(t, i)));
  }
  // The marks kept for this run, of verdicts the page has.
  if (lab.verdicts.size) {
    try {
      const kept = JSON.parse(window.localStorage.getItem(lab.store) || '{}');
      for (const [key, m] of Object.entries(kept || {})) {
        if (lab.verdicts.has(key) && m) lab.marks.set(key, { label: m.label === 'agree' || m.label === 'disagree' ? m.label : '', note: typeof m.note === 'string' ? m.note : '' });
      }
    } catch (_) {
      lab.kept = false;
    }
  }
  function saveMarks() {
    try {
      window.localStorage.setItem(lab.store, JSON.stringify(Object.fromEntries(lab.marks)));
      lab.kept = true;
    } catch (_) {
      lab.kept = false;
    }
    refreshLabels();
  }
  function labelled() { return [...lab.marks.values()].filter((m) => m.label).length; }

  // setMark sets a verdict's label and note (null: as they were); a mark
  // with neither is dropped.
  function setMark(key, label, note) {
    const m = Object.assign({ label: '', note: '' }, lab.marks.get(key));
    if (label !== null) m.label = label;
    if (note !== null) m.note = note;
    if (m.label || m.note) lab.marks.set(key, m);
    else lab.marks.delete(key);
    saveMarks();
    syncMarks(key);
  }
  // syncMarks shows the marks in every row of the verdict key (all rows
  // without a key): a failed attempt's verdict shows in its runs' table
  // and, for the shown attempt, among the test's assertions too.
  function syncMarks(key) {
    for (const row of document.querySelectorAll('tr.criterion')) {
      if (key !== undefined && row.dataset.key !== key) continue;
      const m = lab.marks.get(row.dataset.key) || { label: '', note: '' };
      row.dataset.label = m.label;
      for (const b of row.querySelectorAll('.mark-buttons button')) b.setAttribute('aria-pressed', String(b.dataset.label === m.label));
      const note = row.querySelector('.mark-note');
      if (note !== document.activeElement) note.value = m.note;
    }
  }

  function judgeTable(a, ctx) {
    return h('table', { class: 'judge' },
      h('thead', {}, h('tr', {}, ['Criterion', 'Verdict', 'Reasoning', 'Your label'].map((x) => h('th', {}, x)))),
      h('tbody', {}, a.judge.criteria.map((c) => {
        const key = labelKey(ctx.test, ctx.attempt, a.id, c.criterion);
        const m = lab.marks.get(key) || { label: '', note: '' };
        const btn = (label, text) => h('button', { type: 'button', 'data-label': label, 'aria-pressed': String(m.label === label),
          onclick: () => { const was = lab.marks.get(key); setMark(key, was && was.label === label ? '' : label, null); } }, text);
        return h('tr', { class: 'criterion', 'data-key': key, 'data-label': m.label },
          h('td', { class: 'crit' }, clean(c.criterion)),
          h('td', { class: 'verdict v-' + c.verdict }, VERDICT[c.verdict] || c.verdict),
          h('td', { class: 'reasoning' }, clean(c.reasoning)),
          h('td', { class: 'mark' }, h('div', { class: 'mark-buttons', role: 'group', 'aria-label': 'Your label of this verdict' },
            btn('agree', 'Agree'), btn('disagree', 'Disagree')),
          h('input', { type: 'text', class: 'mark-note', placeholder: 'Note (optional)', 'aria-label': 'Note on this verdict', value: m.note,
            oninput: (e) => setMark(key, null, e.target.value) })));
      })));
  }

  // labelsCallout is the run header's line: how many verdicts are
  // labelled, the next one to label, the download and the load.
  function labelsCallout() {
    return h('div', { id: 'labels', class: 'callout labels' },
      h('p', {}, h('strong', {}, 'Labels: '), h('span', { id: 'labels-count' }), ' ',
        h('button', { type: 'button', id: 'labels-next', class: 'more', onclick: nextUnlabelled }, 'Next unlabelled'), ' ',
        h('button', { type: 'button', id: 'labels-download', class: 'more', onclick: downloadLabels }, 'Download labels'), ' ',
        h('label', { class: 'more load' }, 'Load labels…',
          h('input', { type: 'file', id: 'labels-file', accept: '.json,application/json', onchange: loadLabels }))),
      h('p', { id: 'labels-said', class: 'sub', hidden: true }));
  }
  function refreshLabels() {
    const el = document.getElementById('labels-count');
    if (!el) return;
    const n = labelled();
    el.textContent = n + ' of ' + count(lab.verdicts.size, 'judge verdict') + ' labelled' +
      (lab.kept ? '' : ' · this browser keeps no labels for the page: download them before closing it');
    document.getElementById('labels-download').disabled = n === 0;
  }
  function said(text) {
    const el = document.getElementById('labels-said');
    el.textContent = text;
    el.hidden = false;
  }

  // labelsFile is the labels as ananke.labels/v1 (internal/labels): in
  // the page's order, attempt and note left out when 0 and empty.
  function labelsFile() {
    const labels = [];
    for (const [key, v] of lab.verdicts) {
      const m = lab.marks.get(key);
      if (!m || !m.label) continue;
      const l = { test: v.test };
      if (v.attempt) l.attempt = v.attempt;
      Object.assign(l, { assertion: v.assertion, scope: v.scope, criterion: v.criterion, judge_model: v.judge_model,
        prompt_hash: v.prompt_hash, verdict: v.verdict, label: m.label });
      if (m.note) l.note = m.note;
      labels.push(l);
    }
    return { schema: LABELS_SCHEMA, run: data.run, labels };
  }
  // downloadLabels saves the labels file through a link to it in memory:
  // nothing leaves the browser.
  function downloadLabels() {
    const url = URL.createObjectURL(new Blob([JSON.stringify(labelsFile(), null, 2) + '\n'], { type: 'application/json' }));
    const a = h('a', { href: url, download: 'ananke-labels-' + data.run.slice(0, 19).replace(/[^0-9A-Za-z]/g, '') + '.json', hidden: true });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60000);
  }
  // loadLabels takes a labels file's labels of this page's verdicts: the
  // same test, attempt, assertion and criterion, judged by the same model
  // and prompt with the same verdict; it says how many it left out.
  function loadLabels(e) {
    const input = e.target, file = input.files && input.files[0];
    if (!file) return;
    file.text().then((text) => {
      const f = JSON.parse(text);
      if (!f || f.schema !== LABELS_SCHEMA || !Array.isArray(f.labels)) throw new Error('it is not an ' + LABELS_SCHEMA + ' file');
      let took = 0, left = 0;
      for (const l of f.labels) {
        const v = l && lab.verdicts.get(labelKey(l.test, l.attempt || 0, l.assertion, l.criterion));
        if (v && (l.label === 'agree' || l.label === 'disagree') && v.verdict === l.verdict && v.judge_model === l.judge_model && v.prompt_hash === l.prompt_hash) {
          lab.marks.set(labelKey(v.test, v.attempt, v.assertion, v.criterion), { label: l.label, note: typeof l.note === 'string' ? l.note : '' });
          took++;
        } else {
          left++;
        }
      }
      saveMarks();
      syncMarks();
      said('Loaded ' + count(took, 'label') + ' from ' + file.name + (left ? '; left out ' + left + ' not about a verdict this page shows' : '') + '.');
    }).catch((err) => said(file.name + ' was not loaded: ' + err.message)).finally(() => { input.value = ''; });
  }
  // nextUnlabelled opens the first verdict with no label, in the page's
  // order.
  function nextUnlabelled() {
    for (const [key, v] of lab.verdicts) {
      const m = lab.marks.get(key);
      if (m && m.label) continue;
      const href = '#test=' + enc(v.test);
      if (location.hash !== href) history.pushState(null, '', href);
      route();
      const rows = [...document.querySelectorAll('#detail tr.criterion')].filter((r) => r.dataset.key === key);
      const row = rows.find((r) => r.closest('section.assertions')) || rows[0];
      if (row) {
        for (let d = row.closest('details'); d; d = d.parentElement && d.parentElement.closest('details')) d.open = true;
        row.scrollIntoView({ block: 'center' });
        row.querySelector('button').focus();
      }
      return;
    }
    said('Every judge verdict is labelled.');
  }

  const ORDER = { fail: 0, error: 0, warn: 1, pass: 2, skip: 3 };
  function renderAssertions(t) {
    const list = t.assertions.slice().sort((x, y) => (ORDER[x.status] ?? 2) - (ORDER[y.status] ?? 2));
    const failed = list.filter((a) => a.status === 'fail').length;
    const notMade = list.filter((a) => a.status === 'error').length;
    const warned = list.filter((a) => a.status === 'warn').length;
    const ctx = { linkable: true, file: t.trace_file, test: t.id, attempt: shownNo(t) };
    return h('section', { class: 'assertions' },
      h('h3', {}, 'Assertions ', h('span', { class: 'sub' }, list.length + ' · ' + failed + ' failed' + (notMade ? ' · ' + notMade + ' not made' : '') + (warned ? ' · ' + warned + ' warned' : ''))),
      list.length ? list.map((a) => renderAssertion(a, ctx)) : h('p', { class: 'sub' }, 'None.'));
  }

  function findCall(ref) {
    for (const tu of cur.turns) for (const c of tu.calls || []) if (tu.index === ref.turn && c.id === ref.id) return c;
    return { id: ref.id, name: '?', args: '', start_ms: 0, done_ms: 0 };
  }

  function callCard(c) {
    return h('div', { class: 'call' + (c.client ? ' client' : '') + (c.served ? ' double' : '') + (c.unanswered ? ' unanswered' : '') },
      h('div', { class: 'call-head' }, h('code', { class: 'tool' }, c.name), c.client && flag('client-answered', 'client'), c.agent && flag('by ' + c.agent, 'agent'),
        c.served && flag(c.served, c.unanswered ? 'warn' : 'double'), c.source && flag(c.source, 'spans'),
        h('span', { class: 'sub' }, c.id + ' · ' + at(c.start_ms) + ' · took ' + dur(Math.max(0, c.done_ms - c.start_ms))),
        ' ', seqLink(c.start_seq), ' ', seqLink(c.end_seq), ' ', seqLink(c.result_seq)),
      h('div', { class: 'label' }, 'Arguments'), block(c.args, { json: c.args_json, whole: c.args_bytes }),
      c.result != null
        ? [h('div', { class: 'label' }, c.result_error ? 'Result (error: ' + clean(c.result_error) + ')' : 'Result'),
            block(c.result, { json: c.result_json, whole: c.result_bytes })]
        : h('div', { class: 'label' }, 'No result'));
  }

  // modelCalls lists a turn's requests to the model through Ananke's
  // gateway: model, what became of it, tokens, when and how long.
  function modelCalls(tu) {
    return h('div', { class: 'model-calls' }, h('div', { class: 'label' }, 'Model calls (gateway)'),
      h('table', {}, h('thead', {}, h('tr', {}, ['#', 'Model', 'Status', 'Tokens', 'At', 'Took'].map((x) => h('th', {}, x)))),
        h('tbody', {}, tu.model_calls.map((m, i) => h('tr', { class: m.failed ? 'failed' : '' },
          h('td', {}, String(i + 1)), h('td', {}, h('code', {}, m.model), m.response_model && h('span', { class: 'sub' }, ' (' + m.response_model + ')'),
            m.stream && [' ', flag('stream')]),
          h('td', {}, clean(m.outcome)), h('td', {}, m.tokens || '–'), h('td', {}, at(m.at_ms)), h('td', {}, dur(m.duration_ms)))))));
  }

  // aboutCall names the interrupt a card is about: its id, and the call.
  function aboutCall(id, tool, callID) {
    return id + (tool ? ' · ' + tool + (callID ? ' call ' + callID : '') : callID ? ' · call ' + callID : '');
  }

  // interruptCard is an interrupt a turn's run ended with: the agent asks.
  function interruptCard(i) {
    return h('div', { class: 'hitl interrupt' },
      h('div', { class: 'call-head' }, h('strong', {}, 'Interrupt'), h('code', { class: 'tool' }, clean(i.reason)),
        h('span', { class: 'sub' }, aboutCall(i.id, i.tool, i.tool_call_id) + ' · ' + at(i.at_ms)), ' ', seqLink(i.seq)),
      i.message && block(i.message));
  }

  // resumeCard is the answer a turn sent to a pending interrupt.
  function resumeCard(r) {
    return h('div', { class: 'hitl resume ' + r.status },
      h('div', { class: 'call-head' }, h('strong', {}, 'Resume'), h('code', { class: 'tool' }, r.answer + ' → ' + r.status),
        h('span', { class: 'sub' }, 'interrupt ' + aboutCall(r.interrupt_id, r.tool, r.tool_call_id) + (r.reason ? ' · ' + clean(r.reason) : '') + ' · ' + at(r.at_ms)), ' ', seqLink(r.seq)),
      r.payload && [h('div', { class: 'label' }, 'Payload'), block(r.payload, { json: true })]);
  }

  // callsAndAgents shows the turn's calls: the main agent's, each followed
  // by the sub-agent runs it started, then the other runs; a run holds the
  // calls made in it and the runs it started. A subagent known only by the
  // calls that name it (an imported session's) gets a box of its own.
  function callsAndAgents(tu) {
    const runs = (tu.subagents || []).map((s) => ({ s, calls: [], kids: [] }));
    const byKey = new Map(runs.map((r) => [r.s.run_id, r]));
    const main = [];
    for (const c of tu.calls || []) {
      const key = c.subagent_run_id || (c.agent ? 'agent ' + c.agent : '');
      if (!key) { main.push(c); continue; }
      if (!byKey.has(key)) {
        const r = { s: { name: c.agent || c.subagent_run_id }, calls: [], kids: [] };
        byKey.set(key, r);
        runs.push(r);
      }
      byKey.get(key).calls.push(c);
    }
    const top = [];
    for (const r of runs) {
      const parent = r.s.parent_run_id && byKey.get(r.s.parent_run_id);
      if (parent && parent !== r) parent.kids.push(r); else top.push(r);
    }
    const placed = new Set();
    const out = [];
    for (const c of main) {
      out.push(callCard(c));
      for (const r of top) if (r.s.parent_tool_call_id === c.id) { placed.add(r); out.push(subagentBox(r)); }
    }
    for (const r of top) if (!placed.has(r)) out.push(subagentBox(r));
    return out;
  }
  function subagentBox(r) {
    const s = r.s;
    const when = s.start_ms != null ? at(s.start_ms) + (s.end_ms ? ' · took ' + dur(Math.max(0, s.end_ms - s.start_ms)) : '') : '';
    return h('section', { class: 'subagent' + (s.status ? ' st-' + s.status : ''), 'data-run': s.run_id },
      h('div', { class: 'subagent-head' }, h('span', { class: 'who' }, 'Sub-agent'), h('code', { class: 'tool' }, s.name),
        s.status && flag(s.status, s.status === 'error' || s.status === 'running' ? 'warn' : ''),
        h('span', { class: 'sub' }, [s.run_id && 'run ' + s.run_id, s.parent_tool_call_id && 'started by call ' + s.parent_tool_call_id, when,
          count(r.calls.length, 'call')].filter(Boolean).join(' · ')), ' ', seqLink(s.start_seq), ' ', seqLink(s.end_seq)),
      s.description && h('p', { class: 'sub' }, clean(s.description)),
      s.error && h('p', { class: 'msg' }, 'Error: ' + clean(s.error)),
      r.calls.map(callCard),
      r.kids.map(subagentBox),
      s.result && [h('div', { class: 'label' }, 'Result'), block(s.result, { json: true, whole: s.result_bytes })]);
  }
  // activities shows each activity message as the turn left it.
  function activities(tu) {
    return h('div', { class: 'activities' }, h('div', { class: 'label' }, 'Activity'), tu.activities.map((a) => h('div', { class: 'item-box activity' },
      h('div', { class: 'sub' }, a.type + ' · ' + a.id + ' · ' + count(a.updates, 'update') + ' · ' + at(a.first_ms) + (a.last_ms !== a.first_ms ? ' to ' + at(a.last_ms) : ''),
        ' ', seqLink(a.first_seq), ' ', a.last_seq !== a.first_seq && seqLink(a.last_seq)),
      block(a.content, { json: true, whole: a.content_bytes }))));
  }

  // timeline draws a turn's resumes, calls, first text and interrupts on
  // its time axis.
  function timeline(tu) {
    const span = Math.max(1, tu.end_ms - tu.start_ms);
    const pos = (ms) => Math.min(100, Math.max(0, ((ms - tu.start_ms) / span) * 100));
    const lane = (label, from, to, note, cls) => h('div', { class: 'lane' },
      h('span', { class: 'lane-label' }, label),
      h('span', { class: 'track' }, h('span', { class: 'bar ' + cls, style: 'left:' + pos(from).toFixed(2) + '%;width:' + Math.max(pos(to) - pos(from), 0.4).toFixed(2) + '%' })),
      h('span', { class: 'lane-note' }, note));
    const rows = [];
    for (const r of tu.resumes || []) rows.push(lane('resume: ' + r.answer + (r.tool ? ' ' + r.tool : ''), r.at_ms, r.at_ms, at(r.at_ms) + ', ' + r.status, 'resume'));
    if (tu.first_text_ms != null) rows.push(lane('first text', tu.first_text_ms, tu.first_text_ms, at(tu.first_text_ms), 'text'));
    for (const c of tu.calls || []) {
      rows.push(lane(c.name + (c.client ? ' (client)' : '') + (c.served ? ' ⇄' : '') + (c.source ? ' ◇' : ''), c.start_ms, c.done_ms, at(c.start_ms) + ', ' + dur(Math.max(0, c.done_ms - c.start_ms)), c.client ? 'client' : c.served ? 'double' : 'call'));
    }
    for (const m of tu.model_calls || []) rows.push(lane('model ' + m.model, m.at_ms, m.at_ms + m.duration_ms, at(m.at_ms) + ', ' + dur(m.duration_ms), m.failed ? 'interrupt' : 'model'));
    for (const i of tu.interrupts || []) rows.push(lane('interrupt: ' + (i.tool || i.reason), i.at_ms, i.at_ms, at(i.at_ms) + ', ' + i.reason, 'interrupt'));
    if (!rows.length) return null;
    return h('div', { class: 'timeline' },
      h('div', { class: 'lane axis' }, h('span', { class: 'lane-label' }, 'time'),
        h('span', { class: 'track' }, h('span', { class: 'tick l' }, at(tu.start_ms)), h('span', { class: 'tick r' }, at(tu.end_ms))), h('span', { class: 'lane-note' }, dur(span))),
      rows);
  }

  // files lists the files a message carried: name, type, and size (or,
  // for a file sent by reference, its URI).
  function files(list) {
    return h('ul', { class: 'attachments' }, list.map((a) => h('li', {}, '📎 ' + a.name + ' (' + (a.mime_type || 'unknown type') + ', ' + (a.uri || size(a.bytes)) + ')')));
  }

  function renderTurn(t, tu, ti) {
    const stateEvents = tu.events.filter((e) => typeOf(e) === 'STATE_SNAPSHOT' || typeOf(e) === 'STATE_DELTA');
    const events = h('details', { class: 'events', 'data-turn': ti },
      h('summary', {}, 'Raw events ', h('span', { class: 'sub' }, tu.event_count + (tu.left_out ? ', ' + tu.events.length + ' in this page' : ''))),
      h('div', { class: 'evlist' }));
    events.addEventListener('toggle', () => { if (events.open) fillEvents(events, tu); });
    return h('section', { class: 'turn', id: 'turn-' + tu.index },
      h('h3', {}, 'Turn ' + tu.index, ' ', h('span', { class: 'sub' }, tu.type + ' · ' + at(tu.start_ms) + ' · ' + dur(tu.end_ms - tu.start_ms) + (tu.runs > 1 ? ' · ' + tu.runs + ' runs' : '') +
        (tu.usage ? ' · ' + tu.usage : ''))),
      timeline(tu),
      tu.user !== undefined && h('div', { class: 'msg-box user' }, h('div', { class: 'who' }, tu.type === 'simulated' ? 'Simulated user' : tu.type === 'resume' ? 'Resume' : 'User'),
        block(tu.user, { whole: tu.user_bytes }),
        tu.attachments && files(tu.attachments)),
      (tu.resumes || []).map(resumeCard),
      tu.reasoning !== undefined && h('div', { class: 'msg-box reasoning' }, h('div', { class: 'who' }, 'Reasoning'), block(tu.reasoning, { whole: tu.reasoning_bytes })),
      callsAndAgents(tu),
      tu.model_calls && modelCalls(tu),
      (tu.text !== undefined || tu.agent_files) && h('div', { class: 'msg-box assistant' },
        h('div', { class: 'who' }, 'Assistant', tu.first_text_ms != null && h('span', { class: 'sub' }, ' first text ' + at(tu.first_text_ms)), ' ', seqLink(tu.first_text_seq)),
        tu.text !== undefined && block(tu.text, { whole: tu.text_bytes }),
        tu.agent_files && files(tu.agent_files)),
      (tu.interrupts || []).map(interruptCard),
      (tu.run_errors || []).map((e) => h('div', { class: 'callout st-error' }, badge('error'), ' RUN_ERROR' + (e.code ? ' ' + e.code : '') + ': ' + clean(e.message) + ' ', seqLink(e.seq))),
      stateEvents.length > 0 && h('div', { class: 'state' }, h('div', { class: 'label' }, 'State events'),
        stateEvents.map((e) => h('div', {}, h('span', { class: 'sub' }, typeOf(e) + ' ' + at(e[1]) + ' '), seqLink(e[0]),
          e[3] && e[3].bytes ? block(e[2]) : block(e[2], { json: true })))),
      tu.activities && activities(tu),
      tu.state && h('div', { class: 'state' }, h('div', { class: 'label' }, 'State at the end of the turn'), block(tu.state, { json: true, whole: tu.state_bytes })),
      tu.memory && h('div', { class: 'memory' }, h('div', { class: 'label' }, 'Memory'), tu.memory.map((m) => h('div', { class: 'item-box' },
        h('div', { class: 'sub' }, m.op + ' ' + m.path + (m.group ? ' (group ' + m.group + ')' : '') + ' · ' + at(m.at_ms) + (m.call_id ? ' · call ' + m.call_id : ''), ' ', seqLink(m.seq)),
        m.content && block(m.content, { whole: m.content_bytes })))),
      tu.outbound && h('div', { class: 'outbound' }, h('div', { class: 'label' }, 'Sent out'), tu.outbound.map((o) => h('div', { class: 'item-box' },
        h('div', { class: 'sub' }, (o.to ? 'to ' + o.to + ' · ' : '') + at(o.at_ms) + (o.call_id ? ' · call ' + o.call_id : ''), ' ', seqLink(o.seq)),
        block(o.text, { whole: o.text_bytes })))),
      events);
  }

  // fillEvents renders a turn's raw events the first time they are shown.
  function fillEvents(el, tu) {
    const list = el.querySelector('.evlist');
    if (list.childElementCount) return;
    const rows = [];
    const gaps = (tu.left_out || []).slice();
    for (const e of tu.events) {
      while (gaps.length && gaps[0].from < e[0]) rows.push(leftOutRow(gaps.shift()));
      rows.push(eventRow(e));
    }
    for (const g of gaps) rows.push(leftOutRow(g));
    list.replaceChildren(...rows);
  }
  function leftOutRow(g) {
    return h('p', { class: 'note leftout' }, g.count + ' events (#' + g.from + '–' + g.to + ') are not in this page, which keeps ' +
      size(data.caps.events) + ' of events a test beside those pointed at; see ' + cur.trace_file + '.');
  }
  // typeOf returns an event's type, read from its JSON (and kept).
  function typeOf(e) {
    if (e.type === undefined) {
      try {
        const o = JSON.parse(e[2]);
        e.type = o && typeof o.type === 'string' ? o.type : '';
      } catch (_) { // cut at the page's cap: its type starts it, as a rule
        const m = /"type"\s*:\s*"([^"\\]*)"/.exec(e[2]);
        e.type = m ? m[1] : '';
      }
    }
    return e.type;
  }
  function eventRow(e) {
    const [seq, ms, raw] = e;
    const row = h('details', { class: 'ev', id: 'ev-' + seq },
      h('summary', {}, h('span', { class: 'seq' }, '#' + seq), h('span', { class: 'at' }, at(ms)), h('span', { class: 'type' }, typeOf(e) || '(no type)'),
        h('span', { class: 'peek' }, clean(peek(raw)))));
    row.addEventListener('toggle', () => { if (row.open) expand(row, e); });
    row.event = e;
    return row;
  }
  // peek is the start of an event's JSON without its type, which the row
  // shows beside it.
  function peek(raw) {
    return raw.slice(0, 300).replace(/^\{\s*"type"\s*:\s*"[^"\\]*"\s*,?\s*/, '{').slice(0, 160);
  }
  // expand shows an event's JSON, the first time its row opens.
  function expand(row, e) {
    if (row.childElementCount > 1) return;
    const [, , raw, extra] = e;
    if (extra && extra.bytes) row.append(h('pre', { class: 'code' }, clean(raw)), cutNote(extra.bytes));
    else row.append(block(raw, { json: true }));
    if (extra && extra.origin) row.append(h('p', { class: 'sub' }, 'Read at ' + extra.origin));
  }

  // reveal opens, highlights and scrolls to the events first..last.
  function reveal(first, last) {
    for (const el of document.querySelectorAll('.hl')) el.classList.remove('hl');
    let target = null;
    document.querySelectorAll('details.events').forEach((el) => {
      const tu = cur.turns[Number(el.dataset.turn)];
      if (!tu.events.some((e) => e[0] >= first && e[0] <= last)) return;
      el.open = true;
      fillEvents(el, tu);
      for (const e of tu.events) {
        if (e[0] < first || e[0] > last) continue;
        const row = document.getElementById('ev-' + e[0]);
        row.classList.add('hl');
        if (!target) target = row;
      }
    });
    if (!target) return;
    target.open = true;
    expand(target, target.event);
    target.setAttribute('tabindex', '-1');
    target.scrollIntoView({ block: 'center' });
    target.focus({ preventScroll: true });
  }

  // The history (docs/history.md): a test's recent runs on the base
  // branch and this run, oldest first and this run last, as sparklines
  // drawn in inline SVG. Shapes say what colours do: a bar up passed, down
  // failed or errored, a dash was skipped, a dot was not in the run; a
  // duration or cost the run did not have is a gap, never 0.
  const SVG_NS = 'http://www.w3.org/2000/svg';
  function svg(tag, attrs, ...kids) {
    const el = document.createElementNS(SVG_NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null && v !== false) el.setAttribute(k, String(v));
    return fill(el, kids, false);
  }
  const RUN_WORD = { p: 'passed', f: 'failed', e: 'errored', s: 'skipped' };
  const RUN_CLASS = { p: 'pass', f: 'fail', e: 'error', s: 'skipped' };
  // runWord says what a run did: 'failed', 'passed, flaky', 'not in the run'.
  function runWord(c) {
    const w = RUN_WORD[c.toLowerCase()] || 'not in the run';
    return c !== c.toLowerCase() ? w + ', flaky' : w;
  }
  // ago names run i of n: 'this run', '3 runs ago'.
  function ago(i, n) { return i === n - 1 ? 'this run' : count(n - 1 - i, 'run') + ' ago'; }
  // geometry of a sparkline: a slot of step pixels a run, the bar w wide,
  // this run set apart by gap, height ht.
  const BIG = { step: 7, w: 5, gap: 5, ht: 22 }, MINI = { step: 3, w: 2, gap: 3, ht: 12 };
  function slotX(i, n, g) { return i * g.step + (i === n - 1 ? g.gap : 0); }
  function sparkBox(n, g, cls, label) {
    const width = n * g.step + g.gap;
    return svg('svg', { class: 'spark ' + cls + (g === MINI ? ' mini' : ''), width, height: g.ht, viewBox: '0 0 ' + width + ' ' + g.ht, role: 'img', 'aria-label': label });
  }
  // resultSpark draws each run's result; titles name the run and its result.
  function resultSpark(tr, g, label) {
    const n = tr.seq.length, mid = g.ht / 2, arm = mid - 1;
    const box = sparkBox(n, g, 'results', label);
    for (let i = 0; i < n; i++) {
      const c = tr.seq[i], x = slotX(i, n, g), kind = RUN_CLASS[c.toLowerCase()] || 'absent';
      const cls = 'm ' + kind + (c !== c.toLowerCase() ? ' flaky' : '') + (i === n - 1 ? ' now' : '');
      const title = g === BIG && svg('title', {}, ago(i, n) + ': ' + runWord(c));
      if (kind === 'absent') box.append(svg('circle', { class: cls, cx: x + g.w / 2, cy: mid, r: g === BIG ? 1.2 : 0.8 }, title));
      else if (kind === 'skipped') box.append(svg('rect', { class: cls, x, y: mid - 1, width: g.w, height: 2 }, title));
      else box.append(svg('rect', { class: cls, x, y: kind === 'pass' ? 1 : mid, width: g.w, height: arm }, title));
    }
    return box;
  }
  // lineSpark draws values over the runs, null ones left out: the line
  // breaks there. fmt writes a value; null when no run has one.
  function lineSpark(vals, fmt, cls, label) {
    const n = vals.length, g = BIG, pad = 3;
    const known = vals.filter((v) => v != null);
    if (!known.length) return null;
    const lo = Math.min(...known), hi = Math.max(...known);
    const y = (v) => (hi === lo ? g.ht / 2 : g.ht - pad - ((v - lo) / (hi - lo)) * (g.ht - 2 * pad));
    const box = sparkBox(n, g, 'line ' + cls, label);
    let d = '', on = false;
    const dots = [];
    vals.forEach((v, i) => {
      if (v == null) { on = false; return; }
      const cx = (slotX(i, n, g) + g.w / 2).toFixed(1), cy = y(v).toFixed(1);
      d += (on ? 'L' : 'M') + cx + ' ' + cy;
      on = true;
      dots.push(svg('circle', { class: 'm' + (i === n - 1 ? ' now' : ''), cx, cy, r: i === n - 1 ? 2.4 : 1.6 }, svg('title', {}, ago(i, n) + ': ' + fmt(v))));
    });
    box.append(svg('path', { class: 'ln', d }), ...dots);
    return box;
  }
  // trendNote is this run's figure and the range of the runs before it.
  function trendNote(vals, fmt) {
    const now = vals[vals.length - 1], before = vals.slice(0, -1).filter((v) => v != null);
    return (now != null ? 'this run ' + fmt(now) : 'this run unknown') + ' · ' +
      (before.length ? 'before ' + fmt(Math.min(...before)) + (Math.min(...before) !== Math.max(...before) ? '–' + fmt(Math.max(...before)) : '') : 'unknown before');
  }
  // usd writes a cost as the other outputs do: cents from a dollar on,
  // two significant digits below.
  function usd(v) {
    if (v === 0) return '$0.00';
    if (v < 0) return '-' + usd(-v);
    if (v >= 99.995) return '$' + v.toFixed(0);
    if (v >= 0.995) return '$' + v.toFixed(2);
    const r = Number(v.toExponential(1));
    let s = r.toFixed(Math.max(2, 1 - Math.floor(Math.log10(r)))).replace(/0+$/, '');
    const dec = s.length - s.indexOf('.') - 1;
    if (dec < 2) s += '0'.repeat(2 - dec);
    return '$' + s;
  }
  // tokens writes a token count as the other outputs do: 950, 12.4k, 1.2M.
  function tokens(v) {
    const n = Math.round(v);
    if (n > -1000 && n < 1000) return n + ' tokens';
    const short = (x) => (Math.abs(x) >= 99.95 ? x.toFixed(0) : x.toFixed(1).replace(/\.0$/, ''));
    const k = short(n / 1e3);
    return (k.replace('-', '').split('.')[0].length < 4 ? k + 'k' : short(n / 1e6) + 'M') + ' tokens';
  }
  function renderTrend(t) {
    const tr = t.trend;
    const row = (label, chart, note) => chart && h('div', { class: 'trend-row' }, h('span', { class: 'trend-label' }, label), chart, h('span', { class: 'sub' }, note));
    const ms = (v) => dur(v);
    const use = tr.cost_usd ? ['Cost per attempt', tr.cost_usd, usd, 'cost'] : tr.tokens ? ['Tokens per attempt', tr.tokens, tokens, 'tokens'] : null;
    return h('section', { class: 'trend' },
      h('h3', {}, 'Recent runs ', h('span', { class: 'sub' }, (data.history ? data.history + ' and this run' : 'this run last') + ', oldest first')),
      row('Results', resultSpark(tr, BIG, 'results, oldest first: ' + [...tr.seq].map(runWord).join('; ')), tr.facts),
      row('Duration', lineSpark(tr.ms, ms, 'duration', 'durations, oldest first'), trendNote(tr.ms, ms)),
      use && row(use[0], lineSpark(use[1], use[2], use[3], use[0].toLowerCase() + ', oldest first'), trendNote(use[1], use[2])),
      h('p', { class: 'sub legend' }, 'A bar up passed (amber when flaky), down failed or errored; a dash was skipped, a dot not in the run; the last, set apart, is this run. A gap in a line is a run without the figure.'));
  }
  // blameFlag is the history's verdict on a failed test, for its head: a
  // failure that counts as new (one that --fail-on new fails) in the
  // colour of a failure, whatever the words.
  function blameFlag(t) {
    const tr = t.trend;
    if (!tr || !tr.says) return null;
    const el = flag(tr.says, 'blame ' + (tr.new ? 'new' : tr.blame));
    if (tr.new && tr.blame !== 'new') el.title = 'counts as a new failure: it fails here more often than its history on the base branch explains';
    return el;
  }

  function renderStability(t) {
    const s = t.stability;
    return h('section', { class: 'stability' },
      h('h3', {}, 'Runs ', h('span', { class: 'sub' }, s.passed_runs + ' of ' + s.runs + ' passed (' + s.pass_rate + '%' + (s.ci ? ', ' + s.ci : '') + ', at least ' + s.min_pass_rate + '% needed)' +
        (s.retries ? ' · up to ' + s.retries + (s.retries === 1 ? ' retry' : ' retries') : '') + (t.flaky ? ' · flaky' : ''))),
      s.pass_k && h('p', { class: 'sub pass-k' }, s.pass_k + ': the chance that ' + s.runs + ' runs in a row all pass'),
      s.adaptive && h('p', { class: 'sub adaptive' }, s.adaptive),
      h('table', { class: 'attempts' },
        h('thead', {}, h('tr', {}, h('th', {}, 'Attempt'), h('th', {}, 'Status'), h('th', {}, 'Duration'), data.usage && h('th', {}, 'Usage'), h('th', {}, 'Failed assertions'))),
        h('tbody', {}, s.attempts.map((a, i) => h('tr', { class: a.shown ? 'shown' : '' },
          h('td', {}, a.label, a.shown && h('span', { class: 'sub' }, ' (shown below)'),
            a.trace_id && h('div', { class: 'sub' }, 'trace ', h('code', { class: 'attempt-trace-id' }, a.trace_id))),
          h('td', {}, badge(a.status)), h('td', {}, dur(a.duration_ms)), data.usage && h('td', { class: 'usage' }, a.usage),
          h('td', {}, a.reason && h('p', { class: 'msg' }, clean(a.reason)),
            (a.failed || []).map((f) => renderAssertion(f, { linkable: a.shown, file: a.trace_file, fold: true, test: t.id, attempt: attemptNo(t, i) }))))))));
  }

  // usageLine is what a test's agent used: in words, per run, per model.
  function usageLine(u) {
    return h('span', { class: 'usage' }, u.text, u.per_run && ' (' + u.per_run + ')',
      u.models && h('span', { class: 'sub models' }, ' — ' + u.models.join('; ')));
  }

  function renderTest(t) {
    cur = t;
    seqs = t.turns.flatMap((tu) => tu.events.map((e) => e[0])).sort((x, y) => x - y);
    const d = document.getElementById('detail');
    d.dataset.test = t.id;
    delete d.dataset.view;
    const src = t.source && [t.source.adapter, t.source.version, t.source.mode, t.source.path].filter(Boolean).join(' · ');
    fill(d, [
      h('div', { class: 'test-head' }, badge(t.status), h('h2', {}, t.name || t.id), t.flaky && flag('flaky'), t.inconclusive && flag('inconclusive', 'warn'), t.quarantine && flag('quarantined', 'warn'), blameFlag(t), t.warned && flag('warned', 'warn'),
        t.not_made > 0 && flag(count(t.not_made, 'check') + ' not made', 'warn')),
      dl([['ID', h('code', {}, t.id)], ['File', h('code', {}, t.file + ':' + t.line)], ['Tags', t.tags && t.tags.join(', ')],
        ['Variant', t.variant && [h('code', {}, t.variant), cmpv.rowOf.has(t.id) && [' ', h('a', { href: '#variants&test=' + enc(cmpv.rowOf.get(t.id).test), class: 'compare' }, 'compare variants')]]],
        ['Duration', dur(t.duration_ms)], ['Usage', t.usage && usageLine(t.usage)], ['Source', src], ['Trace', h('code', {}, t.trace_file)],
        ['Trace id', t.trace_id && h('code', { class: 'trace-id' }, t.trace_id)]]),
      t.reason && h('div', { class: 'callout st-' + t.status }, h('p', { class: 'msg' }, clean(t.reason)),
        t.reason_at && h('p', { class: 'sub' }, 'at ', h('code', {}, t.reason_at)), t.detail && block(t.detail)),
      !t.reason && t.detail && h('div', { class: 'callout' }, block(t.detail)),
      t.quarantine && h('div', { class: 'callout quarantine' }, h('p', {}, h('strong', {}, 'Quarantined: '), clean(t.quarantine.reason)),
        h('p', { class: 'sub' }, t.quarantine.entry + '. It is reported, and never fails the run.' + (t.quarantine.stable ? ' Stable in this run: every attempt passed.' : ''))),
      t.trend && renderTrend(t),
      t.stability && renderStability(t),
      t.checkpoints && h('section', { class: 'checkpoints' }, h('h3', {}, 'Checkpoints'), h('ul', {}, t.checkpoints.map((c) => h('li', {},
        c.reached_at_turn == null ? flag('not reached', 'warn') : flag('reached at turn ' + c.reached_at_turn, 'ok'), ' ', h('code', {}, c.id),
        c.description && ' ' + c.description, ' ', h('span', { class: 'sub' }, c.source.file + ':' + c.source.line))))),
      renderAssertions(t),
      t.warnings && h('section', { class: 'warnings' }, h('h3', {}, 'Protocol warnings'), h('ul', {}, t.warnings.map((w) => h('li', {},
        badge('warn'), ' ', h('code', {}, w.rule), ' turn ' + w.turn + ': ' + clean(w.message) + ' ', seqLink(w.seq))))),
      t.history && h('section', { class: 'history' }, h('h3', {}, 'History'), t.history.map((m) => h('div', { class: 'msg-box ' + m.role },
        h('div', { class: 'who' }, m.role), block(m.content)))),
      t.turns.length ? h('h3', { class: 'turns-head' }, 'Conversation') : null,
      t.turns.map((tu, i) => renderTurn(t, tu, i))], true);
    for (const a of document.querySelectorAll('#list .item')) a.setAttribute('aria-current', String(a.dataset.id === t.id));
    window.scrollTo(0, Math.min(window.scrollY, d.offsetTop));
  }

  function renderHome() {
    cur = null;
    seqs = [];
    const bad = data.tests.filter((t) => t.status === 'fail' || t.status === 'error');
    const d = document.getElementById('detail');
    delete d.dataset.test;
    delete d.dataset.view;
    fill(d, [h('h2', {}, bad.length ? 'Tests to look at' : 'Every test passed or was skipped'),
      h('p', { class: 'sub' }, 'Choose a test on the left to see its assertions, conversation, tool calls and raw events.'),
      bad.length > 0 && h('ul', { class: 'attention' }, bad.map((t) => {
        const first = t.assertions.find((a) => a.status === 'fail' || a.status === 'error');
        return h('li', {}, badge(t.status), ' ', h('a', { href: '#test=' + enc(t.id) }, t.name || t.id), ' ', blameFlag(t),
          h('div', { class: 'sub' }, clean(first ? first.message : t.reason || '')));
      }))], true);
    for (const a of document.querySelectorAll('#list .item')) a.setAttribute('aria-current', 'false');
  }

  // Attack runs (docs/attacks.md): the run's header gives their totals and
  // the gate's verdict; the attacks view (#attacks) sums them per test and
  // channel site and lists every run, the worst first, each opening on its
  // payload, where it was planted, what showed the attack succeeded (the
  // run's canary marked wherever it shows) and the test's own failures
  // under attack. A succeeded attack shows as a failure.
  const OUTCOMES = ['all', 'succeeded', 'resisted', 'error', 'skipped'];
  const OUTCOME_LABEL = { succeeded: 'SUCCEEDED', resisted: 'RESISTED', error: 'ERROR', skipped: 'SKIPPED' };
  const EVIDENCE_WORDS = { tool_call: 'called the goal’s tool', tool_argument: 'the canary in a tool call’s arguments',
    markdown_image: 'the canary in a markdown image’s address', url: 'the canary in an address', text: 'the canary in its text',
    instructions: 'its own instructions in its text' };
  const atk = { outcome: 'all', group: null, sort: 'order', shown: false, rows: new Map() };

  // pct is a rate of the attack runs that were measured (succeeded or
  // resisted); '—' when none was.
  function pct(rate, t) { return t.succeeded + t.resisted ? Math.round(rate * 10) / 10 + '%' : '—'; }
  // site names where a payload went: 'tool_result search_orders'.
  function site(x) { return x.channel + (x.site ? ' ' + x.site : ''); }
  // attackLine says the attack runs' totals in a line.
  function attackLine(a) {
    const t = a.totals;
    return [count(t.runs, 'attack run'), t.succeeded + ' succeeded (' + pct(t.success_rate, t) + ')', t.errored && t.errored + ' errored',
      t.skipped && t.skipped + ' skipped', 'utility ' + pct(t.utility, t), a.usage].filter(Boolean).join(' · ');
  }
  function attacksCallout(a) {
    return h('div', { id: 'attacks-summary', class: 'callout attacks st-' + a.status, role: a.status === 'fail' ? 'alert' : null },
      h('p', {}, badge(a.status), ' ', h('strong', {}, 'Attacks: '), attackLine(a), ' ', h('a', { href: '#attacks' }, 'Show attacks')),
      a.reason && h('p', { class: 'msg' }, clean(a.reason)));
  }
  // marked is a text with the canary marked wherever it shows.
  function marked(text, canary) {
    const parts = clean(text).split(canary);
    return parts.flatMap((p, i) => (i ? [h('mark', { class: 'canary' }, canary), p] : [p]));
  }
  function outcomeBadge(r) {
    return h('span', { class: 'badge outcome st-' + r.status }, OUTCOME_LABEL[r.outcome] || r.outcome.toUpperCase());
  }
  function testLink(id, name) {
    return byId.has(id) ? h('a', { href: '#test=' + enc(id) }, name || id) : name || id;
  }
  function inGroup(r) {
    const g = atk.group;
    return !g || (r.test === g.test && r.channel === g.channel && (r.site || '') === (g.site || ''));
  }

  function renderAttacks() {
    const a = data.attacks, t = a.totals;
    cur = null;
    seqs = [];
    atk.shown = true;
    const d = document.getElementById('detail');
    delete d.dataset.test;
    d.dataset.view = 'attacks';
    const totals = [['runs', 'Runs', t.runs], ['succeeded', 'Succeeded', t.succeeded], ['resisted', 'Resisted', t.resisted],
      ['errored', 'Errored', t.errored], ['skipped', 'Skipped', t.skipped], ['success_rate', 'Success rate', pct(t.success_rate, t)],
      ['utility', 'Utility', pct(t.utility, t)]];
    const sortSel = h('select', { id: 'attack-sort', 'aria-label': 'Sort channel sites', onchange: (e) => { atk.sort = e.target.value; fillGroups(); } },
      h('option', { value: 'order' }, 'sort: in order'), h('option', { value: 'success' }, 'sort: by success rate'), h('option', { value: 'utility' }, 'sort: by utility'));
    const outcomes = h('div', { class: 'filters outcomes', role: 'group', 'aria-label': 'Filter attack runs by outcome' },
      OUTCOMES.map((o) => h('button', { type: 'button', 'data-outcome': o, onclick: () => { atk.outcome = o; refreshRuns(); } },
        h('span', { class: 'fl' }, o), ' ', h('span', { class: 'count' }, ''))));
    atk.rows = new Map(a.runs.map((r) => [r.id, runRow(r)]));
    fill(d, [
      h('div', { class: 'test-head' }, badge(a.status), h('h2', {}, 'Attacks'), a.gate ? flag('gate: ' + a.gate) : flag('no gate: attacks fail nothing')),
      h('ul', { id: 'attack-totals', class: 'totals' }, totals.map(([k, label, n]) =>
        h('li', { 'data-total': k, class: 'tot-' + k + (n && k === 'succeeded' ? ' some' : '') }, h('span', { class: 'n' }, n), h('span', { class: 'k' }, label)))),
      dl([['Duration', dur(a.duration_ms)], ['Usage', a.usage]]),
      a.reason && h('div', { class: 'callout st-' + a.status }, h('p', { class: 'msg' }, clean(a.reason))),
      h('section', { class: 'attack-groups' }, h('h3', {}, 'Per test and channel site ', h('span', { class: 'sub' }, count(a.groups.length, 'site'))),
        h('div', { class: 'find' }, sortSel),
        h('table', { class: 'attempts attack-groups' },
          h('thead', {}, h('tr', {}, ['Test', 'Channel site', 'Runs', 'Succeeded', 'Success rate', 'Errored', 'Utility', ''].map((x) => h('th', {}, x)))),
          h('tbody', { id: 'attack-groups' }))),
      h('section', { class: 'attack-runs' }, h('h3', {}, 'Attack runs ', h('span', { class: 'sub' }, 'the worst first')),
        outcomes, h('p', { id: 'attack-shown', class: 'sub' }), h('div', { id: 'attack-runs' }, [...atk.rows.values()])),
      a.not_attacked && h('section', { class: 'not-attacked' }, h('h3', {}, 'Not attacked'),
        h('ul', {}, a.not_attacked.map((n) => h('li', {}, testLink(n.test, n.name), ': ', clean(n.reason)))))], true);
    fillGroups();
    refreshRuns();
    for (const el of document.querySelectorAll('#list .item')) el.setAttribute('aria-current', 'false');
    window.scrollTo(0, Math.min(window.scrollY, d.offsetTop));
  }

  // fillGroups lists the channel sites, in the order atk.sort says: the
  // report's, the highest success rate first or the lowest utility first
  // (sites with no measured run last).
  function fillGroups() {
    const key = { success: (g) => -g.totals.success_rate, utility: (g) => g.totals.utility }[atk.sort];
    const measured = (g) => g.totals.succeeded + g.totals.resisted > 0;
    const list = data.attacks.groups.map((g, i) => [g, i]);
    if (key) list.sort((x, y) => measured(y[0]) - measured(x[0]) || key(x[0]) - key(y[0]) || x[1] - y[1]);
    document.getElementById('attack-groups').replaceChildren(...list.map(([g]) => {
      const t = g.totals, on = atk.group === g;
      return h('tr', { class: (t.succeeded ? 'st-fail' : '') + (on ? ' shown' : ''), 'data-group': g.test + ' ' + site(g) },
        h('td', {}, testLink(g.test, g.name), h('div', { class: 'sub' }, g.source)), h('td', {}, h('code', {}, site(g))),
        h('td', {}, String(t.runs)), h('td', { class: 'succeeded' }, String(t.succeeded)), h('td', {}, pct(t.success_rate, t)),
        h('td', {}, String(t.errored)), h('td', {}, pct(t.utility, t)),
        h('td', {}, h('button', { type: 'button', class: 'more', 'aria-pressed': String(on), onclick: () => { atk.group = on ? null : g; fillGroups(); refreshRuns(); } },
          on ? 'all runs' : 'its runs')));
    }));
  }

  // refreshRuns hides the runs the filters leave out and counts the rest.
  function refreshRuns() {
    const runs = data.attacks.runs.filter(inGroup);
    for (const b of document.querySelectorAll('.outcomes button')) {
      const o = b.dataset.outcome;
      b.setAttribute('aria-pressed', String(o === atk.outcome));
      b.querySelector('.count').textContent = runs.filter((r) => o === 'all' || r.outcome === o).length;
    }
    let n = 0;
    for (const r of data.attacks.runs) {
      const show = inGroup(r) && (atk.outcome === 'all' || r.outcome === atk.outcome);
      atk.rows.get(r.id).hidden = !show;
      n += show;
    }
    document.getElementById('attack-shown').textContent = 'Showing ' + n + ' of ' + count(data.attacks.runs.length, 'attack run') +
      (atk.group ? ' (' + (atk.group.name || atk.group.test) + ', ' + site(atk.group) + ')' : '');
  }

  // runRow is an attack run, its body made when it first opens.
  function runRow(r) {
    const row = h('details', { class: 'attack-run st-' + r.status, 'data-run': r.id, 'data-outcome': r.outcome },
      h('summary', {}, outcomeBadge(r), h('code', { class: 'kind' }, r.attack),
        h('span', { class: 'msg' }, (r.name || r.test) + ' · ' + site(r) + (r.evidence ? ' · ' + r.evidence.map((e) => e.kind).join(', ') : '')),
        h('span', { class: 'flag utility' + (r.utility === 'pass' ? ' ok' : r.utility === 'skipped' ? '' : ' warn') }, 'utility ' + r.utility)));
    row.addEventListener('toggle', () => { if (row.open) runBody(row, r); });
    return row;
  }
  function runBody(row, r) {
    if (row.childElementCount > 1) return;
    const ev = (r.evidence || []).map((e) => h('li', { class: 'evidence' },
      h('div', { class: 'note' }, 'turn ' + e.turn + ' · ', h('strong', {}, EVIDENCE_WORDS[e.kind] || e.kind), ' ', h('code', { class: 'sub' }, e.kind),
        e.tool && [' · ', h('code', { class: 'tool' }, e.tool)], e.call_id && h('span', { class: 'sub' }, ' call ' + e.call_id),
        e.echo && h('span', { class: 'sub' }, ' · echo: the payload repeated, not followed')),
      h('pre', { class: 'code excerpt' }, marked(e.excerpt, r.canary))));
    row.append(h('div', { class: 'body' },
      r.reason && h('p', { class: 'msg full' }, clean(r.reason)),
      dl([['Run', h('code', {}, r.id)], ['Test', testLink(r.test, r.name)],
        ['Attack', [h('code', {}, r.attack), ' · goal ' + r.goal + ' · style ' + r.style + ' · from ' + r.corpus]],
        ['Planted in', [h('code', {}, site(r)), r.planted_at && [' at ', h('code', { class: 'planted-at' }, r.planted_at)]]],
        ['Canary', h('mark', { class: 'canary' }, r.canary)], ['Utility', badge(r.utility)],
        ['Duration', dur(r.duration_ms)], ['Usage', r.usage],
        ['Link', h('a', { href: '#attacks&run=' + enc(r.id) }, '#attacks&run=' + r.id)]]),
      h('div', { class: 'label' }, 'Payload'), h('pre', { class: 'code payload' }, marked(r.payload, r.canary)),
      r.payload_bytes && h('p', { class: 'note cut' }, 'Cut: this is the first part of ' + size(r.payload_bytes) + '; the whole is in summary.json.'),
      ev.length > 0 && [h('div', { class: 'label' }, 'Evidence'), h('ul', { class: 'evidence-list' }, ev)],
      r.utility_failures && [h('div', { class: 'label' }, 'Failed under attack'),
        h('ul', { class: 'utility-failures' }, r.utility_failures.map((f) => h('li', { class: 'msg' }, clean(f))))]));
  }
  // openRun opens the attack run an address names, showing it whatever
  // the filters.
  function openRun(id) {
    const row = atk.rows.get(id);
    if (!row) return;
    if (row.hidden) {
      atk.outcome = 'all';
      atk.group = null;
      fillGroups();
      refreshRuns();
    }
    row.open = true;
    runBody(row, data.attacks.runs.find((r) => r.id === id));
    row.scrollIntoView({ block: 'start' });
  }

  // Variants (docs/variants.md): the run's header gives the pair
  // verdicts; the comparison view (#variants) has each variant's totals,
  // usage, median turn and error, the verdicts, and a matrix of tests ×
  // variants — each cell the test under that variant (its status, passed
  // runs, pass rate with its interval, cost, median turn), linking to it,
  // a pass rate significantly above another variant's marked ▲ and one
  // below ▼. The matrix sorts by test, by a variant's pass rate (the
  // lowest first) or by the largest difference, and shows every test, the
  // tests whose cells differ or those that differ significantly. The page
  // shows the report's comparison; it computes no statistic.
  const SYMBOL = { pass: '✓', fail: '✗', error: '!', skipped: '–', skip: '–', warn: '⚠' };
  const VFILTERS = ['all', 'differ', 'significant'];
  const cmpv = { sort: 'test', filter: 'all', shown: false, rowOf: new Map() };
  if (data.variants) for (const r of data.variants.rows) for (const c of r.cells) cmpv.rowOf.set(c.id, r);

  function significant(v) { return v.rows.filter((r) => r.differences).length; }
  function pairLines(v) {
    return h('ul', { class: 'pair-lines' }, v.pairs.map((p) => h('li', { class: p.worse ? 'st-fail' : p.better ? 'st-pass' : null }, clean(p.line))));
  }
  function variantsCallout(v) {
    return h('div', { id: 'variants-summary', class: 'callout variants' },
      h('p', {}, h('strong', {}, 'Variants: '), v.variants.map((x) => x.name).join(' · ') + ' · ' +
        count(significant(v), 'test') + ' significantly different', ' ', h('a', { href: '#variants' }, 'Compare variants')),
      pairLines(v));
  }
  function variantsLink(v) {
    return h('p', { class: 'variants-link' }, h('a', { href: '#variants', id: 'variants-link' }, 'Variants',
      h('span', { class: 'sub' }, ' ' + v.variants.length + ' compared · ' + significant(v) + ' significant')));
  }
  function inFilter(r, f) { return f === 'all' || (f === 'differ' ? !!r.differ : !!r.differences); }

  function renderVariants() {
    const v = data.variants;
    cur = null;
    seqs = [];
    cmpv.shown = true;
    const d = document.getElementById('detail');
    delete d.dataset.test;
    d.dataset.view = 'variants';
    const sortSel = h('select', { id: 'variant-sort', 'aria-label': 'Sort tests', onchange: (e) => { cmpv.sort = e.target.value; fillMatrix(); } },
      h('option', { value: 'test' }, 'sort: by test'),
      v.variants.map((x, i) => h('option', { value: 'rate:' + i }, 'sort: by ' + x.name + '’s pass rate')),
      h('option', { value: 'spread' }, 'sort: by largest difference'));
    sortSel.value = cmpv.sort;
    const filters = h('div', { class: 'filters vfilters', role: 'group', 'aria-label': 'Filter tests by difference' },
      VFILTERS.map((f) => h('button', { type: 'button', 'data-vfilter': f, onclick: () => { cmpv.filter = f; fillMatrix(); } },
        h('span', { class: 'fl' }, f), ' ', h('span', { class: 'count' }, ''))));
    fill(d, [
      h('div', { class: 'test-head' }, h('h2', {}, 'Variants'), flag('significance ' + v.significance + ' · Fisher’s exact test')),
      h('table', { class: 'attempts variant-heads' },
        h('thead', {}, h('tr', {}, ['Variant', 'Changes', 'Passed', 'Failed', 'Errored', 'Skipped', 'Pass rate', 'Usage', 'Median turn'].map((x) => h('th', {}, x)))),
        h('tbody', {}, v.variants.map((x) => {
          const t = x.totals;
          return [h('tr', { 'data-variant': x.name, class: x.error ? 'st-error' : null },
            h('td', {}, h('strong', {}, x.name)), h('td', {}, x.overrides ? h('code', {}, x.overrides) : '–'),
            h('td', {}, t.passed + ' of ' + t.total), h('td', {}, String(t.failed)), h('td', {}, String(t.errored)), h('td', {}, String(t.skipped)),
            h('td', {}, Math.round(t.pass_rate * 10) / 10 + '%'), h('td', {}, x.usage || '–'),
            h('td', {}, x.median_turn_ms != null ? dur(x.median_turn_ms) : '–')),
          x.error && h('tr', { class: 'variant-error' }, h('td', { colspan: 9 }, badge('error'), ' ', clean(x.error)))];
        }))),
      h('section', { class: 'verdicts' }, h('h3', {}, 'Verdicts'), pairLines(v)),
      h('section', { class: 'matrix' }, h('h3', {}, 'Tests × variants ', h('span', { class: 'sub' }, '▲ ▼ a pass rate significantly above or below another variant’s')),
        h('div', { class: 'find' }, filters, sortSel), h('p', { id: 'variant-shown', class: 'sub' }),
        h('table', { class: 'attempts variant-matrix' },
          h('thead', {}, h('tr', {}, h('th', {}, 'Test'), v.variants.map((x) => h('th', { 'data-variant': x.name }, x.name)), h('th', {}, 'Significant differences'))),
          h('tbody', { id: 'variant-rows' })))], true);
    fillMatrix();
    for (const el of document.querySelectorAll('#list .item')) el.setAttribute('aria-current', 'false');
    window.scrollTo(0, Math.min(window.scrollY, d.offsetTop));
  }

  // fillMatrix lists the tests the filter shows, in the order cmpv.sort
  // says: the suite's; a variant's pass rate, the lowest first (its cells
  // not judged, errored or skipped, last); the largest difference first.
  function fillMatrix() {
    const v = data.variants;
    for (const b of document.querySelectorAll('.vfilters button')) {
      const f = b.dataset.vfilter;
      b.setAttribute('aria-pressed', String(f === cmpv.filter));
      b.querySelector('.count').textContent = v.rows.filter((r) => inFilter(r, f)).length;
    }
    const list = v.rows.map((r, i) => [r, i]).filter(([r]) => inFilter(r, cmpv.filter));
    if (cmpv.sort === 'spread') {
      list.sort((x, y) => y[0].spread - x[0].spread || !!y[0].differences - !!x[0].differences || x[1] - y[1]);
    } else if (cmpv.sort.startsWith('rate:')) {
      const k = Number(cmpv.sort.slice(5)), judged = (r) => !!r.cells[k].interval;
      list.sort((x, y) => judged(y[0]) - judged(x[0]) || x[0].cells[k].pass_rate - y[0].cells[k].pass_rate || x[1] - y[1]);
    }
    document.getElementById('variant-rows').replaceChildren(...list.map(([r]) => matrixRow(r)));
    document.getElementById('variant-shown').textContent = 'Showing ' + list.length + ' of ' + count(v.rows.length, 'test');
  }

  function matrixRow(r) {
    return h('tr', { 'data-test': r.test, class: r.differences ? 'significant' : r.differ ? 'differ' : null },
      h('td', {}, h('span', { class: 'name' }, clean(r.name || r.test)), h('div', { class: 'sub' }, r.source)),
      r.cells.map((c) => {
        const body = [h('span', { class: 'sym' }, SYMBOL[c.status] || c.status), ' ', h('span', { class: 'runs' }, c.passed + '/' + c.runs),
          c.better && h('span', { class: 'sig better', title: 'significantly above another variant' }, ' ▲'),
          c.worse && h('span', { class: 'sig worse', title: 'significantly below another variant' }, ' ▼'),
          h('div', { class: 'rate' }, c.interval ? [c.rate, h('span', { class: 'sub' }, ' (' + c.interval + ')')] : LABEL[c.status] || c.status),
          h('div', { class: 'sub' }, [c.cost, c.median_turn_ms != null && dur(c.median_turn_ms)].filter(Boolean).join(' · '))];
        return h('td', { class: 'cell st-' + c.status + (c.better ? ' better' : '') + (c.worse ? ' worse' : ''), 'data-variant': c.variant },
          byId.has(c.id) ? h('a', { href: '#test=' + enc(c.id), class: 'vcell', title: c.variant + ': ' + clean(r.name || r.test) }, body) : body);
      }),
      h('td', { class: 'diffs' }, (r.differences || []).map((x) => h('div', {}, clean(x.text)))));
  }

  // showRow shows a test's row, whatever the filter, and marks it.
  function showRow(test) {
    const row = data.variants.rows.find((r) => r.test === test);
    if (!row) return;
    if (!inFilter(row, cmpv.filter)) {
      cmpv.filter = 'all';
      fillMatrix();
    }
    for (const tr of document.querySelectorAll('#variant-rows tr')) {
      tr.classList.toggle('shown', tr.dataset.test === test);
      if (tr.dataset.test === test) tr.scrollIntoView({ block: 'center' });
    }
  }

  function route() {
    const q = new URLSearchParams(location.hash.slice(1));
    const onAttacks = !!data.attacks && q.has('attacks');
    const link = document.getElementById('attacks-link');
    if (link) link.setAttribute('aria-current', String(onAttacks));
    const onVariants = !!data.variants && q.has('variants');
    const vlink = document.getElementById('variants-link');
    if (vlink) vlink.setAttribute('aria-current', String(onVariants));
    if (onAttacks) {
      cmpv.shown = false;
      if (!atk.shown) renderAttacks();
      if (q.get('run')) openRun(q.get('run'));
      return;
    }
    atk.shown = false;
    if (onVariants) {
      if (!cmpv.shown) renderVariants();
      if (q.get('test')) showRow(q.get('test'));
      return;
    }
    cmpv.shown = false;
    const t = byId.get(q.get('test'));
    if (!t) { renderHome(); return; }
    if (t !== cur) renderTest(t);
    const ev = q.get('event');
    if (ev) {
      const [a, b] = ev.split('-').map(Number);
      reveal(a, b || a);
    }
  }

  renderRun();
  refreshLabels();
  renderNav();
  window.addEventListener('hashchange', route);
  window.addEventListener('popstate', route);
  route();
})();
