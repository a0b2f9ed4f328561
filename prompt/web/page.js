// The page works as a plain form; this script makes it nicer: the focused
// option's preview, progress, the Other field, checks before sending,
// number keys and n for a note, sending without leaving the page, and
// learning at once when askuser stops waiting.
(function () {
  'use strict';
  document.documentElement.classList.add('js');

  var main;        // the current <main>; replaced by each answer from askuser
  var busy = false; // a form is on its way
  var final = false; // the page shows how it ended
  var polling = false;

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

  // openNote shows a card's note field and moves to it, once the key that
  // asked for it is done with: its character must not land in the note.
  function openNote(card) {
    var box = $('details.note', card);
    if (!box) return;
    box.open = true;
    setTimeout(function () { noteText(card).focus(); }, 0);
  }

  // focusCard moves to a card's chosen option, or its first, or its text;
  // to its note when only the note is wrong.
  function focusCard(card) {
    var note = noteText(card);
    var noteWrong = note && note.getAttribute('aria-invalid') === 'true';
    if (noteWrong && $('.error', card).textContent === '') { openNote(card); return; }
    var c = choices(card).filter(function (c) { return c.checked; })[0] || choices(card)[0] || otherText(card);
    c.focus();
    card.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
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
  // rendered it.
  function show(html) {
    var doc = new DOMParser().parseFromString(html, 'text/html');
    var fresh = doc.getElementById('main');
    if (!fresh) { gone(); return; }
    main.replaceWith(document.adoptNode(fresh));
    document.title = doc.title;
    init();
  }

  // gone says the question was withdrawn when askuser no longer answers.
  function gone() {
    if (final) return;
    var fresh = document.createElement('main');
    fresh.id = 'main';
    fresh.dataset.state = 'withdrawn';
    fresh.appendChild($('#gone').content.cloneNode(true));
    main.replaceWith(fresh);
    document.title = 'Question withdrawn · askuser';
    init();
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

  // poll waits for askuser to say it has stopped waiting: answered in
  // another window, cancelled, timed out or interrupted. If askuser is gone
  // altogether, the question was withdrawn.
  function poll() {
    if (final) { polling = false; return; }
    polling = true;
    fetch(main.dataset.wait, { cache: 'no-store', credentials: 'same-origin' }).then(function (r) {
      if (r.status === 204) { poll(); return; }
      if (r.status !== 200) { polling = false; gone(); return; }
      return r.text().then(function (html) {
        polling = false;
        if (!final && !busy) show(html);
      });
    }).catch(function () {
      polling = false;
      if (!busy) gone();
    });
  }

  function init() {
    main = $('#main');
    busy = false;
    final = main.dataset.state !== 'form';
    var title = $('#title', main);
    if (final) {
      if (title) title.focus();
      return;
    }
    var form = $('#answers', main);
    cards().forEach(function (card) { preview(card, current(card)); });
    progress();
    var invalid = $('.card.invalid', main);
    if (invalid) focusCard(invalid);

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
        openNote(card);
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

    if (!polling) poll();
  }

  init();
})();
