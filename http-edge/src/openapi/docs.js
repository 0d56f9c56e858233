// Swagger UI on this server's document. A file of its own: the page's CSP runs no inline script.
window.addEventListener("load", () => {
  window.ui = SwaggerUIBundle({
    url: "/openapi.json",
    dom_id: "#swagger-ui",
    deepLinking: true,
    // The default is a public validator: a request to a third party on every visit.
    validatorUrl: null,
  });
});
