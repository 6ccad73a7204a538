// The API reference, rendered from /openapi.json here (no outside script): every operation with its
// parameters, request body fields and responses. Values are put in the page as text.
"use strict";

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(typeof child === "string" ? document.createTextNode(child) : child);
  }
  return node;
}

function resolve(spec, schema) {
  if (schema && schema.$ref) return spec.components.schemas[schema.$ref.split("/").pop()] || {};
  return schema || {};
}

function typeOf(spec, schema) {
  schema = resolve(spec, schema);
  if (schema.enum) return schema.enum.join(" | ");
  if (schema.type === "array") return typeOf(spec, schema.items) + "[]";
  if (schema.anyOf) return schema.anyOf.map((s) => typeOf(spec, s)).join(" | ");
  return schema.format === "binary" ? "file" : schema.type || "object";
}

function fields(spec, schema) {
  const resolved = resolve(spec, schema);
  const rows = Object.entries(resolved.properties || {}).map(([name, property]) =>
    el("li", {}, el("code", {}, name), ": " + typeOf(spec, property) +
      ((resolved.required || []).includes(name) ? " (required)" : "") +
      (property.description || resolve(spec, property).description ? " — " + (property.description || resolve(spec, property).description) : "")));
  return rows.length ? el("ul", {}, ...rows) : null;
}

function operation(spec, path, method, op) {
  const section = el("section", { class: "operation" }, el("h2", {}, el("code", {}, method.toUpperCase() + " " + path)));
  if (op.summary) section.append(el("p", {}, op.summary));
  const parameters = (op.parameters || []).map((p) =>
    el("li", {}, el("code", {}, p.name), " (" + p.in + "): " + typeOf(spec, p.schema) + (p.required ? " (required)" : "")));
  if (parameters.length) section.append(el("h3", {}, "Parameters"), el("ul", {}, ...parameters));
  const body = op.requestBody && op.requestBody.content;
  for (const [type, content] of Object.entries(body || {})) {
    section.append(el("h3", {}, "Body: " + type), fields(spec, content.schema));
  }
  const responses = Object.entries(op.responses || {}).map(([code, response]) =>
    el("li", {}, el("code", {}, code), " " + (response.description || "")));
  if (responses.length) section.append(el("h3", {}, "Responses"), el("ul", {}, ...responses));
  return section;
}

fetch("/openapi.json").then((r) => r.json()).then((spec) => {
  const main = document.getElementById("operations");
  for (const [path, methods] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(methods)) main.append(operation(spec, path, method, op));
  }
}).catch((error) => {
  document.getElementById("operations").append(el("p", { class: "error" }, String(error)));
});
