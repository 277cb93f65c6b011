// The DOM helpers the director console, its ruling form and the results pages share. Every
// text goes in through textContent, never as HTML. Loaded first by console.html and
// results.html.
"use strict";

window.tenaceDom = Object.freeze({
  $: (id) => document.getElementById(id),

  // el("td", {class: "num", text: "420", onclick: f}, child, ...): null, undefined and false
  // properties and children are left out; "on..." properties become listeners.
  el(tag, props, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(props || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (key === "dataset") Object.assign(node.dataset, value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  },
});
