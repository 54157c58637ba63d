// The rules of chess for a whole game in the page, from chessops (any number of pieces, where the
// server's tablebase answers only five): legal moves in UCI as the server writes them (castling as the
// king's two-square step), SAN, the position after a move, and the game's end by the rules.
import { Chess, castlingSide, normalizeMove } from 'chessops/chess';
import { makeFen, parseFen } from 'chessops/fen';
import { makeSan, parseSan } from 'chessops/san';
import { kingCastlesTo, makeSquare, parseUci, squareRank } from 'chessops/util';

export const START_FEN = 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1';

// The position of `fen`; an Error saying what is wrong with it otherwise.
export function positionOf(fen) {
  const setup = parseFen(fen);
  if (setup.isErr) throw new Error(`'${fen}' is not a FEN (${setup.error.message})`);
  const position = Chess.fromSetup(setup.value);
  if (position.isErr) throw new Error(`'${fen}' is not a legal position (${position.error.message})`);
  return position.value;
}

const fenOf = (position) => makeFen(position.toSetup());

// The FEN as chessops writes it (en passant only when a capture is possible): equal positions, equal text.
export const normalFen = (fen) => fenOf(positionOf(fen));

// Every legal move of `position` in UCI (e1g1 for castling, a7a8q for each promotion).
export function legalUcis(position) {
  const ucis = [];
  for (const [from, tos] of position.allDests()) {
    const pawn = position.board.get(from)?.role === 'pawn';
    for (const to of tos) {
      const side = castlingSide(position, { from, to });
      const uci = makeSquare(from) + makeSquare(side ? kingCastlesTo(position.turn, side) : to);
      if (pawn && (squareRank(to) === 0 || squareRank(to) === 7)) for (const piece of 'qrbn') ucis.push(uci + piece);
      else ucis.push(uci);
    }
  }
  return ucis;
}

// {uci, san, fen (after it)} of `uci` played in `fen`, or null if it is no legal move there.
export function playUci(fen, uci) {
  const position = positionOf(fen);
  const parsed = parseUci(uci);
  if (!parsed || !('from' in parsed)) return null;
  const move = normalizeMove(position, parsed);
  if (!position.isLegal(move)) return null;
  const san = makeSan(position, move);
  position.play(move);
  return { uci, san, fen: fenOf(position), capture: san.includes('x') };
}

// A move a person typed, in SAN (e4, Nf3, exd5, O-O, e8=Q; 0-0 for O-O) or UCI (e2e4, e7e8q), as our
// UCI in `fen`; null if it is no legal move there.
export function typedUci(fen, text) {
  const position = positionOf(fen);
  const typed = text.trim().replace(/^0-0-0/, 'O-O-O').replace(/^0-0/, 'O-O');
  const ucis = legalUcis(position);
  if (ucis.includes(typed.toLowerCase())) return typed.toLowerCase();
  const move = parseSan(position, typed) ?? parseSan(position, typed.charAt(0).toUpperCase() + typed.slice(1));
  if (!move || !('from' in move)) return null;
  const side = castlingSide(position, move);
  const uci = makeSquare(move.from) + makeSquare(side ? kingCastlesTo(position.turn, side) : move.to);
  return move.promotion ? uci + move.promotion.charAt(move.promotion === 'knight' ? 1 : 0) : uci;
}

// What repeats a position (FIDE): the pieces, the side to move, castling rights and en passant.
const repetitionKey = (fen) => fen.split(' ').slice(0, 4).join(' ');

function repetitions(fens) {
  const last = repetitionKey(fens[fens.length - 1]);
  return fens.filter((fen) => repetitionKey(fen) === last).length;
}

// How the game of positions `fens` (the start's, then after each move; normalFen'd) has ended by itself:
// the end's code (play/ending.js words it) or null. Checkmate, stalemate, no mating material on either
// side, a position seen five times, 75 moves each without a capture or pawn move.
export function automaticEnd(fens) {
  const position = positionOf(fens[fens.length - 1]);
  if (position.isCheckmate()) return 'checkmate';
  if (position.isStalemate()) return 'stalemate';
  if (position.isInsufficientMaterial()) return 'insufficient';
  if (repetitions(fens) >= 5) return 'fivefold';
  if (position.halfmoves >= 150) return 'seventyfive';
  return null;
}

// A draw the side to move may claim in the last position: 'repetition' (seen three times) or 'fifty'
// (fifty moves each without a capture or pawn move); null if none.
export function claimableDraw(fens) {
  if (repetitions(fens) >= 3) return 'repetition';
  if (positionOf(fens[fens.length - 1]).halfmoves >= 100) return 'fifty';
  return null;
}

// Whether `colour` ('w' or 'b') has pieces enough to mate at all in `fen` (for a flag fall).
export function canMate(fen, colour) {
  return !positionOf(fen).hasInsufficientMaterial(colour === 'w' ? 'white' : 'black');
}

// Whether our tables could answer `fen`: five pieces or fewer and no castling rights.
export function inTableRange(fen) {
  const [board, , castling] = fen.split(' ');
  return board.replace(/[^a-zA-Z]/g, '').length <= 5 && castling === '-';
}

export const isCheck = (fen) => positionOf(fen).isCheck();

// What each side has more of than the other in `fen`, as lichess shows it beside the players: the pieces
// (`roles`, most valuable first, a role once for each piece more) and the `score` in pawns, for 'w' and 'b'.
const VALUES = { q: 9, r: 5, b: 3, n: 3, p: 1 };
const ROLE_NAMES = { q: 'queen', r: 'rook', b: 'bishop', n: 'knight', p: 'pawn' };
export function materialDiff(fen) {
  const board = fen.split(' ')[0];
  const diff = { w: { roles: [], score: 0 }, b: { roles: [], score: 0 } };
  let balance = 0;
  for (const letter of Object.keys(VALUES)) {
    const more = [...board].filter((c) => c === letter.toUpperCase()).length - [...board].filter((c) => c === letter).length;
    const side = more > 0 ? 'w' : 'b';
    for (let i = 0; i < Math.abs(more); i++) diff[side].roles.push(ROLE_NAMES[letter]);
    balance += more * VALUES[letter];
  }
  if (balance > 0) diff.w.score = balance;
  if (balance < 0) diff.b.score = -balance;
  return diff;
}
