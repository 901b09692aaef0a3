// MENACE, Donald Michie's matchbox machine, playing X against a person on stdin/stdout.
"use strict";
const fs = require("fs");

const ROTATE = [6, 3, 0, 7, 4, 1, 8, 5, 2];
const MIRROR = [2, 1, 0, 5, 4, 3, 8, 7, 6];
const LINES = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];
const LETTERS = "LMR";

// A small seeded generator (mulberry32): a float in [0, 1).
function generator(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const seedAt = process.argv.indexOf("--seed");
const random = generator(seedAt > 0 ? Number(process.argv[seedAt + 1]) : Date.now());
const below = (n) => Math.floor(random() * n);

// Each symmetry as a source list: the image of board b takes cell i from b[source[i]].
const then = (first, second) => second.map((s) => first[s]);
const SYMMETRIES = (() => {
  const turns = [[0, 1, 2, 3, 4, 5, 6, 7, 8]];
  for (let i = 0; i < 3; i++) turns.push(then(turns[turns.length - 1], ROTATE));
  return turns.concat(turns.map((t) => then(t, MIRROR)));
})();

const image = (board, source) => source.map((s) => board[s]).join("");
const count = (board, mark) => board.split(mark).length - 1;
const emptySquares = (board) => [...board].flatMap((c, i) => (c === "." ? [i] : []));
const play = (board, square, mark) => board.slice(0, square) + mark + board.slice(square + 1);

// The box label of a board (its least image) and the symmetry that carries it there.
function labelOf(board) {
  let best = null;
  for (const source of SYMMETRIES) {
    const label = image(board, source);
    if (best === null || label < best[0]) best = [label, source];
  }
  return best;
}

function winner(board) {
  for (const [a, b, c] of LINES) {
    if (board[a] !== "." && board[a] === board[b] && board[a] === board[c]) return board[a];
  }
  return null;
}

const isOver = (board) => winner(board) !== null || !board.includes(".");
const needsBox = (board) =>
  count(board, "X") === count(board, "O") && winner(board) === null && count(board, ".") >= 2;

// The 304 matchboxes, each empty square of a label holding 1 to 4 beads at random.
function allBoxes() {
  const boxes = new Map();
  const seen = new Set();
  const frontier = ["........."];
  while (frontier.length) {
    const board = frontier.pop();
    if (seen.has(board)) continue;
    seen.add(board);
    if (needsBox(board)) {
      const label = labelOf(board)[0];
      if (!boxes.has(label)) {
        boxes.set(label, emptySquares(label).flatMap((c) => Array(1 + below(4)).fill(c)));
      }
    }
    if (!isOver(board)) {
      const mark = count(board, "X") === count(board, "O") ? "X" : "O";
      for (const c of emptySquares(board)) frontier.push(play(board, c, mark));
    }
  }
  if (boxes.size !== 304) throw new Error(`${boxes.size} boxes`);
  return boxes;
}

const write = (text) => fs.writeSync(1, text);

function printBoard(board) {
  write([0, 3, 6].map((r) => [...board.slice(r, r + 3)].join(" ") + "\n").join(""));
}

function printBoxes(boxes) {
  const marks = (b) => 9 - count(b, ".");
  const labels = [...boxes.keys()].sort((a, b) => marks(a) - marks(b) || (a < b ? -1 : 1));
  write(labels.map((l) => `${l} ${[...boxes.get(l)].sort().join(" ")}\n`).join(""));
}

// Lines of input, read as they come (output is written unbuffered, so nothing waits).
let pending = "";
function readLine() {
  const chunk = Buffer.alloc(4096);
  while (!pending.includes("\n")) {
    let n;
    try {
      n = fs.readSync(0, chunk, 0, chunk.length, null);
    } catch (e) {
      if (e.code === "EAGAIN") continue;
      throw e;
    }
    if (n === 0) {
      process.stderr.write("menace: input ended in the middle of a session\n");
      process.exit(1);
    }
    pending += chunk.toString("utf8", 0, n);
  }
  const at = pending.indexOf("\n");
  const line = pending.slice(0, at);
  pending = pending.slice(at + 1);
  return line;
}

function readMove(board) {
  for (;;) {
    const text = readLine().trim().toUpperCase();
    if (text.length === 2 && LETTERS.includes(text[0]) && LETTERS.includes(text[1])) {
      const square = LETTERS.indexOf(text[0]) * 3 + LETTERS.indexOf(text[1]);
      if (board[square] === ".") return square;
    }
    process.stderr.write(`not a move onto an empty square: ${text}\n`);
  }
}

// MENACE's square: a bead drawn from the board's box, set aside in `drawn`.
function menaceMove(board, boxes, drawn) {
  if (count(board, ".") === 1) return board.indexOf(".");
  const [label, source] = labelOf(board);
  const beads = boxes.get(label);
  const bead = beads.splice(below(beads.length), 1)[0];
  if (beads.length === 0) {
    const free = emptySquares(label);
    for (let i = 0; i < 3; i++) beads.push(free[below(free.length)]);
  }
  drawn.push([label, bead]);
  return source[bead];
}

function learn(boxes, drawn, result) {
  const copies = result === "X" ? 2 : result === null ? 1 : 0;
  for (const [label, bead] of drawn) {
    for (let i = 0; i < copies; i++) boxes.get(label).push(bead);
  }
}

function playGame(boxes) {
  write("new game\n");
  let board = ".........";
  const drawn = [];
  for (;;) {
    board = play(board, menaceMove(board, boxes, drawn), "X");
    printBoard(board);
    if (isOver(board)) break;
    board = play(board, readMove(board), "O");
    printBoard(board);
    if (isOver(board)) break;
  }
  learn(boxes, drawn, winner(board));
  printBoxes(boxes);
}

const games = parseInt(readLine(), 10);
const boxes = allBoxes();
for (let g = 0; g < games; g++) playGame(boxes);
