// storycore's start of Swagger UI on {web_url}/docs/api (decisions section 25). The page names
// the OpenAPI document's address (under the prefix the app is mounted under) in data-url; the
// validator is off, so the viewer asks no other host to check the document (Swagger UI's
// default sends it to validator.swagger.io), and no query string may point it elsewhere.
(function () {
  "use strict";
  var root = document.getElementById("swagger-ui");
  window.ui = SwaggerUIBundle({
    url: root.getAttribute("data-url"),
    domNode: root,
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    validatorUrl: null,
    queryConfigEnabled: false,
  });
})();
