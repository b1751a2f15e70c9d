(function () {
  "use strict";
  var id = /*ID*/null;
  var markup = /*MARKUP*/null;
  var customCss = /*CSS*/null;
  var ignoredCss = /*IGNORED_CSS*/null;
  var defaultCss = /*DEFAULT_CSS*/"";
  var quoteCss = /*QUOTE_CSS*/"";
  var script = document.currentScript;
  if (!script || !script.parentNode) {
    console.error("storycore embed: load this script with a <script> element");
    return;
  }
  if (ignoredCss) {
    console.warn("storycore embed: the css parameter was ignored (" + ignoredCss + ")");
  }
  // the tag's data-theme picks the colours: dark, auto (the reader's scheme), else light
  var asked = script.getAttribute("data-theme");
  var theme = asked === "dark" || asked === "auto" ? asked : "light";
  var container = document.createElement("div");
  container.className = "s-story";
  container.setAttribute("data-story", id);
  container.setAttribute("data-theme", theme);
  var style = document.createElement("style");
  style.textContent = defaultCss;
  container.appendChild(style);
  if (customCss) {
    var sheet = document.createElement("link");
    sheet.setAttribute("rel", "stylesheet");
    sheet.setAttribute("href", customCss);
    container.appendChild(sheet);
  }
  // the story page's markup, rendered and escaped by the server, parsed where nothing runs
  var template = document.createElement("template");
  template.innerHTML = markup;
  container.appendChild(document.importNode(template.content, true));
  // a quote's content lives in a shadow root with its own stylesheet: no page or custom
  // stylesheet reaches it
  var quotes = container.querySelectorAll(".s-element-quote");
  for (var i = 0; i < quotes.length; i++) {
    quotes[i].setAttribute("data-theme", theme);
    var root = quotes[i].attachShadow({ mode: "open" });
    var own = document.createElement("style");
    own.textContent = quoteCss;
    root.appendChild(own);
    while (quotes[i].firstChild) { root.appendChild(quotes[i].firstChild); }
  }
/*PLAYER*/
  script.parentNode.insertBefore(container, script.nextSibling);
})();
