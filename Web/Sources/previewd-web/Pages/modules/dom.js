// The page's elements by id: every view finds its own.
export const $ = (id) => document.getElementById(id);
