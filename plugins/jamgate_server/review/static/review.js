// Progressive touches for the review page; everything works without this file.
(function () {
  "use strict";
  // Ask before a destructive action (forms marked data-confirm).
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form.getAttribute && form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) { event.preventDefault(); }
  });
  // Keyboard: "/" focuses search, "u" presses undo.
  document.addEventListener("keydown", function (event) {
    var typing = /^(INPUT|TEXTAREA|SELECT)$/.test(document.activeElement.tagName);
    if (typing || event.ctrlKey || event.metaKey || event.altKey) { return; }
    if (event.key === "/") {
      var search = document.getElementById("q");
      if (search) { event.preventDefault(); search.focus(); }
    } else if (event.key === "u") {
      var undo = document.getElementById("undo");
      if (undo) { undo.click(); }
    }
  });
  // Drop the one-shot message from the address bar, so a reload does not repeat it.
  if (window.history && window.location.search.indexOf("msg=") >= 0) {
    var url = new URL(window.location.href);
    url.searchParams.delete("msg");
    window.history.replaceState(null, "", url.pathname + url.search);
  }
})();
