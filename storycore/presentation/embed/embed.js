(function () {
  "use strict";
  var story = /*STORY*/null;
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
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text) { node.textContent = text; }
    return node;
  }
  function link(href, className, text) {
    var a = el("a", className, text);
    a.setAttribute("href", href);
    a.setAttribute("target", "_blank");
    a.setAttribute("rel", "noopener noreferrer");
    return a;
  }
  function image(src, className, alt) {
    var img = el("img", className);
    img.setAttribute("src", src);
    img.setAttribute("alt", alt || "");
    img.setAttribute("loading", "lazy");
    return img;
  }
  function card(href, title, text, thumbnail) {
    var a = link(href, "s-card");
    if (thumbnail) { a.appendChild(image(thumbnail, "", "")); }
    var body = el("span", "s-card-body");
    body.appendChild(el("span", "s-card-title", title || href));
    if (text) { body.appendChild(el("span", "s-card-text", text)); }
    a.appendChild(body);
    return a;
  }
  function quote(host, element) {
    var root = host.attachShadow({ mode: "open" });
    var style = document.createElement("style");
    style.textContent = quoteCss;
    root.appendChild(style);
    var box = el("div", "q");
    var who = element.attribution || {};
    var head = el("div", "who");
    if (who.thumbnail) { head.appendChild(image(who.thumbnail, "", who.name)); }
    var names = el("span");
    names.appendChild(who.href ? link(who.href, "name", who.name || who.username) : el("span", "name", who.name || who.username));
    if (who.username) { names.appendChild(el("span", "handle", " @" + who.username)); }
    head.appendChild(names);
    box.appendChild(head);
    var data = (element.data && element.data.quote) || {};
    box.appendChild(el("p", "text", data.text || ""));
    if (element.permalink) {
      var source = (element.source && element.source.name) || "the original";
      box.appendChild(link(element.permalink, "src", "View on " + source));
    }
    root.appendChild(box);
  }
  function render(element) {
    var node = el("div", "s-element s-element-" + element.type);
    node.setAttribute("data-element", element.id);
    var data = element.data || {};
    if (element.type === "text") {
      node.innerHTML = data.text || "";
    } else if (element.type === "quote") {
      quote(node, element);
    } else if (element.type === "image") {
      var figure = el("figure");
      var img = data.image || {};
      figure.appendChild(image(img.src, "", img.caption));
      if (img.caption) { figure.appendChild(el("figcaption", "", img.caption)); }
      node.appendChild(figure);
    } else if (element.type === "video") {
      var video = data.video || {};
      node.appendChild(card(element.permalink || video.src, video.title || "Video", "", video.thumbnail));
    } else if (element.type === "link") {
      var page = data.link || {};
      node.appendChild(card(element.permalink, page.title, page.description, page.thumbnail));
    } else if (element.permalink) {
      node.appendChild(card(element.permalink, "", "", ""));
    }
    return node;
  }
  var container = el("div", "s-story");
  container.setAttribute("data-story", story.id);
  var style = document.createElement("style");
  style.textContent = defaultCss;
  container.appendChild(style);
  if (customCss) {
    var sheet = document.createElement("link");
    sheet.setAttribute("rel", "stylesheet");
    sheet.setAttribute("href", customCss);
    container.appendChild(sheet);
  }
  var header = el("div", "s-header");
  header.appendChild(el("h2", "s-title", story.title));
  if (story.description) { header.appendChild(el("p", "s-description", story.description)); }
  var info = el("div", "s-info");
  if (story.author.avatar) { info.appendChild(image(story.author.avatar, "s-avatar", story.author.name)); }
  info.appendChild(link(story.author.permalink, "s-author", story.author.name || story.author.username));
  var when = el("time", "s-date");
  when.setAttribute("datetime", story.date);
  var parsed = new Date(story.date);
  when.textContent = isNaN(parsed.getTime()) ? story.date : parsed.toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });
  info.appendChild(when);
  header.appendChild(info);
  container.appendChild(header);
  var list = el("div", "s-elements");
  for (var i = 0; i < story.elements.length; i++) { list.appendChild(render(story.elements[i])); }
  container.appendChild(list);
  var footer = el("div", "s-footer");
  footer.appendChild(link(story.permalink, "s-permalink", "Read on " + story.site));
  container.appendChild(footer);
  script.parentNode.insertBefore(container, script.nextSibling);
})();
