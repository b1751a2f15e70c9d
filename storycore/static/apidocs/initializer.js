// storycore's start of Swagger UI on {web_url}/docs/api (docs/api.md#the-web-host). The page names
// the OpenAPI document's address (under the prefix the app is mounted under) in data-url; the
// validator is off, so the viewer asks no other host to check the document (Swagger UI's
// default sends it to validator.swagger.io), and no query string may point it elsewhere.
// Deep links are off: Swagger UI draws each operation's path as a link inside the button that
// opens it, a control inside a control (axe's nested-interactive, WCAG 4.1.2) and a target too
// small to tap (target-size); the operations open in place all the same. Without deep links,
// Swagger UI still writes each path and tag name as an <a> without an address, a link that
// leads nowhere (Lighthouse's crawlable-anchors): the plugin below writes them as text. The
// examples are highlighted in the "arta" theme: the default, "agate", writes numbers at a
// contrast of 3.5:1.
(function () {
  "use strict";
  var root = document.getElementById("swagger-ui");
  function pathsAsText(system) {
    var h = system.React.createElement;
    return {
      components: {
        DeepLink: function (props) {
          return h("span", { className: "nostyle" }, h("span", null, props.text));
        },
      },
    };
  }
  window.ui = SwaggerUIBundle({
    url: root.getAttribute("data-url"),
    domNode: root,
    deepLinking: false,
    presets: [SwaggerUIBundle.presets.apis],
    plugins: [pathsAsText],
    layout: "BaseLayout",
    validatorUrl: null,
    queryConfigEnabled: false,
    syntaxHighlight: { activated: true, theme: "arta" },
  });
})();
