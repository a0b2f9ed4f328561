// The page works as a plain form; this script makes it nicer: the focused
// option's preview, progress, the Other field, checks before sending,
// number keys and n for a note, sending without leaving the page, and
// learning at once when askuser stops waiting. In the inbox, it also shows
// each set as it comes, and keeps what the page says of the queue up to
// date.
(function () {
  'use strict';
  document.documentElement.classList.add('js');

  var main;        // the current <main>; replaced by each answer from askuser
  var busy = false; // a form is on its way
  var final = false; // the page shows how it ended
  var waiting = null; // the AbortController of the wait in flight, if any
  var ticker = 0;   // counts on how long the set shown has waited

  function $(sel, root) { return (root || document).querySelector(sel); }
  function $$(sel, root) { return Array.prototype.slice.call((root || document).querySelectorAll(sel)); }

  function cards() { return $$('.card', main); }
  function choices(card) { return $$('input.choice', card); }
  function otherChoice(card) { return $('input.choice[value="0"]', card); }
  function otherText(card) { return $('.other-text', card); }
  function noteText(card) { return $('.note-text', card); }

  // problem says what a card still needs, or '' when it is answered. The
  // words are the ones askuser uses for the same problems.
  function problem(card) {
    var kind = card.dataset.kind;
    var field = otherText(card);
    var text = field ? field.value.trim() : '';
    if (kind === 'text') return text === '' ? 'Type your answer.' : '';
    var chosen = choices(card).filter(function (c) { return c.checked; });
    var other = otherChoice(card);
    if (chosen.length === 0 && (text === '' || !other)) {
      return kind === 'multi' ? 'Choose at least one option.' : 'Choose an option.';
    }
    if (other && other.checked && text === '') {
      return 'Type your own answer, or choose one of the options.';
    }
    return '';
  }

  function progress() {
    var all = cards();
    var done = all.filter(function (c) { return problem(c) === ''; }).length;
    $('#status', main).textContent = done + ' of ' + all.length + ' answered';
    var fill = $('.fill', main);
    if (fill) fill.style.width = (all.length ? 100 * done / all.length : 0) + '%';
    return done === all.length;
  }

  function showProblem(card, text) {
    $('.error', card).textContent = text;
    card.classList.toggle('invalid', text !== '');
    choices(card).forEach(function (c) {
      if (text) c.setAttribute('aria-invalid', 'true'); else c.removeAttribute('aria-invalid');
    });
  }

  // openNote shows a card's note field and moves to it. Opened by a key, it
  // moves once that key is released: the key's character, which may come
  // as an event of its own after the keydown, must not land in the note.
  // A release that never comes (the window lost focus) still moves there,
  // a second later.
  function openNote(card, key) {
    var box = $('details.note', card);
    if (!box) return;
    box.open = true;
    var moved = false;
    function move() {
      document.removeEventListener('keyup', released, true);
      if (moved) return;
      moved = true;
      noteText(card).focus();
    }
    function released(e) {
      if (String(e.key).toLowerCase() === key.toLowerCase()) setTimeout(move, 0);
    }
    if (!key) { setTimeout(move, 0); return; }
    document.addEventListener('keyup', released, true);
    setTimeout(move, 1000);
  }

  // focusCard moves to a card's chosen option, or its first, or its text;
  // to its note when only the note is wrong.
  function focusCard(card) {
    var note = noteText(card);
    var noteWrong = note && note.getAttribute('aria-invalid') === 'true';
    if (noteWrong && $('.error', card).textContent === '') { openNote(card); return; }
    var c = choices(card).filter(function (c) { return c.checked; })[0] || choices(card)[0] || otherText(card);
    c.focus();
    // Smooth, unless the person asked for less motion.
    var still = window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    card.scrollIntoView({ block: 'nearest', behavior: still ? 'auto' : 'smooth' });
  }

  // current is the option whose preview a card shows: the focused one, or
  // the chosen one, or the first.
  function current(card) {
    var active = document.activeElement;
    if (active && active.classList.contains('choice') && card.contains(active)) return active;
    return choices(card).filter(function (c) { return c.checked; })[0] || choices(card)[0];
  }

  function preview(card, input) {
    var pane = $('.pane', card);
    if (!pane) return;
    var id = input ? input.id + '-preview' : '';
    var any = false;
    $$('.preview', pane).forEach(function (p) {
      var on = p.id === id;
      p.classList.toggle('active', on);
      any = any || on;
    });
    pane.classList.toggle('empty', !any);
  }

  // next is the first card after 'from' that still needs an answer,
  // wrapping round; null when every card is answered.
  function next(from) {
    var all = cards();
    var start = all.indexOf(from);
    for (var i = 1; i <= all.length; i++) {
      var c = all[(start + i + all.length) % all.length];
      if (problem(c) !== '') return c;
    }
    return null;
  }

  function setBusy(on) {
    busy = on;
    $$('button', main).forEach(function (b) { b.disabled = on; });
    var submit = $('#submit-button', main);
    if (submit) submit.textContent = on ? 'Sending…' : 'Submit';
  }

  // show replaces the page's <main> with the one in html, as askuser
  // rendered it. What the inbox's wait says of the set being answered (how
  // many more wait) changes only that line, and keeps what was chosen and
  // typed.
  function show(html, fromWait) {
    var doc = new DOMParser().parseFromString(html, 'text/html');
    var fresh = doc.getElementById('main');
    if (!fresh) { gone(); return; }
    var set = main.dataset.set;
    var same = set && fresh.dataset.set === set;
    if (fromWait && same && main.dataset.state === 'form' && fresh.dataset.state === 'form') {
      var line = $('#queue', main), freshLine = $('#queue', fresh);
      if (line && freshLine) line.replaceWith(document.adoptNode(freshLine));
      main.dataset.wait = fresh.dataset.wait;
      tick();
      wait();
      return;
    }
    main.replaceWith(document.adoptNode(fresh));
    document.title = doc.title;
    var notice = $('#notice', fresh);
    announce(notice ? notice.textContent : '');
    init(set !== undefined && !same);
  }

  // announce has a screen reader say text, in a region that outlives the
  // <main> it came with.
  function announce(text) {
    var live = $('#live');
    if (!live) return;
    live.textContent = '';
    if (text) setTimeout(function () { live.textContent = text; }, 50);
  }

  // gone says the question was withdrawn, or the inbox has gone, when
  // askuser no longer answers.
  function gone() {
    if (final) return;
    var fresh = document.createElement('main');
    fresh.id = 'main';
    fresh.dataset.state = 'withdrawn';
    fresh.appendChild($('#gone').content.cloneNode(true));
    main.replaceWith(fresh);
    document.title = $('#title', fresh).textContent + ' · askuser';
    init();
  }

  // waited says how long a set has waited, as askuser says it: 12s, 3m,
  // 1h5m.
  function waited(s) {
    s = Math.max(0, Math.floor(s));
    if (s < 60) return s + 's';
    if (s < 3600) return Math.floor(s / 60) + 'm';
    return Math.floor(s / 3600) + 'h' + Math.floor(s / 60) % 60 + 'm';
  }

  // tick counts on how long the set shown has waited, from what askuser
  // said when it sent the page: no clock but the page's own is read.
  function tick() {
    clearInterval(ticker);
    var el = $('.waited', main);
    if (!el) return;
    var since = Date.now() - 1000 * Number(el.dataset.seconds || 0);
    ticker = setInterval(function () {
      if (!el.isConnected) { clearInterval(ticker); return; }
      var text = 'waiting ' + waited((Date.now() - since) / 1000);
      if (el.textContent !== text) el.textContent = text;
    }, 1000);
  }

  function send(url, body) {
    if (busy || final) return;
    setBusy(true);
    fetch(url, {
      method: 'POST',
      body: body,
      headers: { 'Accept': 'text/html' },
      cache: 'no-store',
      credentials: 'same-origin',
      redirect: 'error'
    }).then(function (r) {
      return r.text().then(function (html) { busy = false; show(html); });
    }).catch(function () {
      busy = false;
      gone();
    });
  }

  // wait waits for askuser to say it has stopped waiting: answered in
  // another window, cancelled, timed out or interrupted; in the inbox, also
  // that a set has come, or that the queue has changed. If askuser is gone
  // altogether, the question was withdrawn. A new wait replaces the one in
  // flight, whose answer is no longer of use.
  function wait() {
    if (waiting) waiting.abort();
    waiting = null;
    if (final) return;
    var ctl = new AbortController();
    waiting = ctl;
    fetch(main.dataset.wait, { cache: 'no-store', credentials: 'same-origin', signal: ctl.signal }).then(function (r) {
      if (ctl !== waiting) return;
      if (r.status === 204) { wait(); return; }
      if (r.status !== 200) { waiting = null; gone(); return; }
      return r.text().then(function (html) {
        if (ctl !== waiting) return;
        waiting = null;
        // While a form is on its way, its answer shows what comes next.
        if (!final && !busy) show(html, true);
      });
    }).catch(function () {
      if (ctl !== waiting) return;
      waiting = null;
      if (!busy) gone();
    });
  }

  // init takes over the <main> that askuser sent; moved says it shows
  // another set of the inbox's than the page showed before.
  function init(moved) {
    main = $('#main');
    busy = false;
    var state = main.dataset.state;
    final = state !== 'form' && state !== 'idle';
    var title = $('#title', main);
    clearInterval(ticker);
    if (final) {
      if (waiting) waiting.abort();
      waiting = null;
      if (title) title.focus();
      return;
    }
    if (state === 'idle') {
      if (moved && title) title.focus();
      wait();
      return;
    }
    var form = $('#answers', main);
    cards().forEach(function (card) { preview(card, current(card)); });
    progress();
    var invalid = $('.card.invalid', main);
    if (invalid) focusCard(invalid);
    else if (moved) {
      // Another set: the page starts at its top, ready for keys.
      window.scrollTo(0, 0);
      var first = cards()[0];
      var c = first && (choices(first).filter(function (c) { return c.checked; })[0] || choices(first)[0] || otherText(first));
      if (c) c.focus({ preventScroll: true });
    }
    tick();

    form.addEventListener('change', function (e) {
      var card = e.target.closest('.card');
      if (!card) return;
      progress();
      if (card.classList.contains('invalid') && problem(card) === '') showProblem(card, '');
      preview(card, current(card));
    });

    form.addEventListener('input', function (e) {
      if (e.target.classList.contains('note-text')) {
        // A note that was refused is taken as changed for the better; the
        // server checks it again.
        if (e.target.getAttribute('aria-invalid') === 'true') {
          e.target.removeAttribute('aria-invalid');
          $('#' + e.target.id + '-error', main).textContent = '';
          var c = e.target.closest('.card');
          if ($('.error', c).textContent === '') c.classList.remove('invalid');
        }
        return;
      }
      if (!e.target.classList.contains('other-text')) return;
      var card = e.target.closest('.card');
      var other = otherChoice(card);
      if (other && e.target.value.trim() !== '' && !other.checked) {
        other.checked = true;
        preview(card, other);
      }
      progress();
      if (card.classList.contains('invalid') && problem(card) === '') showProblem(card, '');
    });

    // Choosing Other with the pointer goes on to its text field.
    form.addEventListener('click', function (e) {
      var t = e.target;
      // Opening a note, by pointer or key, goes on to its field once the
      // browser has opened it.
      var summary = t.closest && t.closest('details.note > summary');
      if (summary) {
        var box = summary.parentElement;
        setTimeout(function () { if (box.open) $('.note-text', box).focus(); }, 0);
        return;
      }
      if (e.detail > 0 && t.classList && t.classList.contains('choice') && t.value === '0' && t.checked) {
        otherText(t.closest('.card')).focus();
      }
    });

    form.addEventListener('focusin', function (e) {
      if (e.target.classList.contains('choice')) preview(e.target.closest('.card'), e.target);
    });

    form.addEventListener('pointerover', function (e) {
      var option = e.target.closest('.option');
      if (option) preview(option.closest('.card'), $('input.choice', option));
    });
    form.addEventListener('pointerout', function (e) {
      var option = e.target.closest('.option');
      if (!option) return;
      var card = option.closest('.card');
      var to = e.relatedTarget && e.relatedTarget.closest && e.relatedTarget.closest('.option');
      if (!to || !card.contains(to)) preview(card, current(card));
    });

    form.addEventListener('keydown', function (e) {
      var t = e.target;
      var card = t.closest('.card');
      if (!card || e.altKey || e.ctrlKey || e.metaKey) return;
      var isChoice = t.classList.contains('choice');
      // n adds a note to the answer, as on the terminal.
      if (isChoice && (e.key === 'n' || e.key === 'N')) {
        if (!$('details.note', card)) return;
        e.preventDefault();
        openNote(card, e.key);
        return;
      }
      // A number chooses that option, 0 chooses Other, as on the terminal.
      if (isChoice && /^[0-9]$/.test(e.key)) {
        var c = $('input.choice[value="' + e.key + '"]', card);
        if (!c) return;
        e.preventDefault();
        c.checked = c.type === 'checkbox' ? !c.checked : true;
        c.focus();
        c.dispatchEvent(new Event('change', { bubbles: true }));
        return;
      }
      // Enter goes on to the next question that needs an answer, and
      // submits once none does.
      if (e.key === 'Enter' && (isChoice || t.classList.contains('other-text') || t.classList.contains('note-text'))) {
        e.preventDefault();
        if (problem(card) !== '') { showProblem(card, problem(card)); return; }
        var todo = next(card);
        if (todo) focusCard(todo); else form.requestSubmit();
      }
    });

    form.addEventListener('submit', function (e) {
      e.preventDefault();
      var first = null;
      cards().forEach(function (card) {
        var p = problem(card);
        showProblem(card, p);
        if (p && !first) first = card;
      });
      if (first) {
        var left = $$('.card.invalid', main).length;
        $('#status', main).textContent = left === 1 ? 'One question still needs an answer.' : left + ' questions still need an answer.';
        focusCard(first);
        return;
      }
      send(form.action, new URLSearchParams(new FormData(form)));
    });

    $('#cancel', main).addEventListener('submit', function (e) {
      e.preventDefault();
      send(e.target.action, new URLSearchParams());
    });

    var nextForm = $('#next', main);
    if (nextForm) {
      nextForm.addEventListener('submit', function (e) {
        e.preventDefault();
        send(e.target.action, new URLSearchParams());
      });
    }

    wait();
  }

  init();
})();
