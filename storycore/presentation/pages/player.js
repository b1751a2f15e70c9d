/*SCOPE*/document.addEventListener("click", function (event) {
  var poster = event.target.closest && event.target.closest("a[data-player]");
  if (!poster || event.button || event.ctrlKey || event.metaKey || event.shiftKey) return;
  event.preventDefault();
  var frame = document.createElement("iframe");
  frame.src = poster.getAttribute("data-player");
  frame.title = poster.textContent.trim();
  frame.setAttribute("sandbox", "allow-scripts allow-same-origin allow-presentation");
  frame.setAttribute("allow", "autoplay; encrypted-media; fullscreen; picture-in-picture");
  frame.className = "video-frame";
  poster.replaceWith(frame);
  frame.focus();
});
