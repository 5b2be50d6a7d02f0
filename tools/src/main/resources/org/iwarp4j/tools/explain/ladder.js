// iwarp explain --html: opens the layers of the arrow clicked (or of the URL fragment #fN when the page loads).
(function () {
  'use strict';
  document.documentElement.classList.add('js');
  function open(id) {
    var panel = id ? document.getElementById(id) : null;
    if (!panel || !panel.classList.contains('layers')) {
      return false;
    }
    document.querySelectorAll('.layers.open').forEach(function (p) { p.classList.remove('open'); });
    document.querySelectorAll('.arrow.selected').forEach(function (a) { a.classList.remove('selected'); });
    panel.classList.add('open');
    var arrow = document.querySelector('.arrow[data-panel="' + id + '"]');
    if (arrow) {
      arrow.classList.add('selected');
    }
    var box = panel.parentElement;
    if (box) {
      box.scrollTop = 0;
    }
    return true;
  }
  document.addEventListener('click', function (event) {
    var arrow = event.target.closest ? event.target.closest('.arrow[data-panel]') : null;
    if (arrow && open(arrow.getAttribute('data-panel'))) {
      event.preventDefault();
      try {
        history.replaceState(null, '', '#' + arrow.getAttribute('data-panel'));
      } catch (e) {
        // a page opened where the URL cannot change: the panel is open all the same
      }
    }
  });
  window.addEventListener('hashchange', function () { open(location.hash.slice(1)); });
  open(location.hash.slice(1));
}());
