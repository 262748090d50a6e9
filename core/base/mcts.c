/*
** mcts.c: UCT Monte-Carlo tree search (Kocsis and Szepesvari 2006).
**
** Each playout walks down the tree by the UCB1 rule, grows it by one
** node's children, finishes the game with uniformly random moves and
** credits the result to every node on its path.  A node's reward is
** counted for the side that moved into it: 1 for a win, 1/2 for a draw.
** Wins and losses that are certain are proven up the tree (the
** MCTS-Solver of Winands, Bjornsson and Saito 2008): a move that wins at
** once is always taken, and one that loses by force never chosen while
** another is left.
** All moves are made and unmade on the one state, so a game written in
** Lua can be searched as well as one written in C.
*/
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"

#define NO_NODE UINT32_MAX
#define WON 1
#define LOST (-1)

typedef struct node {
  game_move move;            /* the move that leads here */
  uint32_t first_child;      /* NO_NODE until expanded */
  uint32_t visits;
  uint16_t children;
  uint8_t mover;             /* the side that played move */
  uint8_t expanded;
  int8_t proven;             /* for the mover: WON, LOST, or 0 unknown */
  double reward;
} node;

typedef struct step {
  game_move move;
  game_undo undo;
} step;

typedef struct mcts {
  const game_class *cls;
  void *state;
  const mcts_options *options;
  const search_limit *limit;
  rng random;
  node *nodes;
  uint32_t count, capacity, max_nodes;
  step *steps;               /* the moves made since the root */
  size_t depth, steps_capacity;
  uint64_t plies;
  bool out_of_memory;
} mcts;

static bool play(mcts *m, game_move move) {
  if (m->depth == m->steps_capacity) {
    size_t capacity = m->steps_capacity ? 2 * m->steps_capacity : 256;
    step *steps = realloc(m->steps, capacity * sizeof *steps);
    if (!steps) {
      m->out_of_memory = true;
      return false;
    }
    m->steps = steps;
    m->steps_capacity = capacity;
  }
  step *s = &m->steps[m->depth++];
  s->move = move;
  m->cls->make(m->state, move, &s->undo);
  m->plies++;
  return true;
}

static void take_back_all(mcts *m) {
  while (m->depth > 0) {
    step *s = &m->steps[--m->depth];
    m->cls->unmake(m->state, s->move, &s->undo);
  }
}

/* Gives the node its children, in random order so that the unvisited
   ones are tried without bias; false when the tree is full. */
static bool expand(mcts *m, uint32_t at) {
  game_move moves[GAME_MAX_MOVES];
  int n = m->cls->moves(m->state, moves);
  if (n == 0 || m->count + (uint32_t)n > m->max_nodes) return false;
  if (m->count + (uint32_t)n > m->capacity) {
    uint32_t capacity = m->capacity;
    while (m->count + (uint32_t)n > capacity) capacity *= 2;
    if (capacity > m->max_nodes) capacity = m->max_nodes;
    node *nodes = realloc(m->nodes, capacity * sizeof *nodes);
    if (!nodes) return false;
    m->nodes = nodes;
    m->capacity = capacity;
  }
  for (int i = n - 1; i > 0; i--) {
    int j = (int)rng_below(&m->random, (uint32_t)i + 1);
    game_move t = moves[i];
    moves[i] = moves[j];
    moves[j] = t;
  }
  int mover = m->cls->turn(m->state);
  node *parent = &m->nodes[at];
  parent->first_child = m->count;
  parent->children = (uint16_t)n;
  parent->expanded = 1;
  for (int i = 0; i < n; i++) {
    node *child = &m->nodes[m->count++];
    memset(child, 0, sizeof *child);
    child->move = moves[i];
    child->first_child = NO_NODE;
    child->mover = (uint8_t)mover;
  }
  return true;
}

/* The child to follow: a proven win, else an unvisited one, else the best
   UCB1 among those not proven lost. */
static uint32_t select_child(const mcts *m, uint32_t at) {
  const node *parent = &m->nodes[at];
  double log_visits = log((double)parent->visits);
  double c = m->options->exploration;
  uint32_t best = parent->first_child;
  double best_value = -2.0;
  for (uint32_t i = 0; i < parent->children; i++) {
    uint32_t id = parent->first_child + i;
    const node *child = &m->nodes[id];
    if (child->proven == WON) return id;
    double value = child->proven == LOST ? -1.0
                 : child->visits == 0 ? 1e300
                 : child->reward / child->visits +
                   c * sqrt(log_visits / child->visits);
    if (value > best_value) {
      best_value = value;
      best = id;
    }
  }
  return best;
}

/* After the node at path[i] was proven, proves what follows above it. */
static void prove_upwards(mcts *m, const uint32_t *path, size_t i) {
  for (; i > 0; i--) {
    node *child = &m->nodes[path[i]], *parent = &m->nodes[path[i - 1]];
    if (child->proven == WON) {
      parent->proven = LOST;        /* its mover let the opponent win */
    } else if (child->proven == LOST) {
      for (uint32_t j = 0; j < parent->children; j++)
        if (m->nodes[parent->first_child + j].proven != LOST) return;
      parent->proven = WON;         /* every answer loses */
    } else {
      return;
    }
  }
}

/* Plays random moves to the end of the game; its status.  A game written
   in Lua reads the clock as it goes (lgame.c) and may stop the limit in
   the middle of a long playout: then it ends unfinished, GAME_ONGOING. */
static game_status playout(mcts *m) {
  const game_class *cls = m->cls;
  int max_plies = m->options->max_playout_plies;
  if (max_plies <= 0) max_plies = 10000;
  for (int ply = 0; ply < max_plies; ply++) {
    if (m->limit->stopped) return GAME_ONGOING;
    game_status status = cls->status(m->state);
    if (status != GAME_ONGOING) return status;
    game_move moves[GAME_MAX_MOVES];
    int n = cls->moves(m->state, moves);
    if (n == 0) return GAME_DRAW;
    if (!play(m, moves[rng_below(&m->random, (uint32_t)n)]))
      return GAME_DRAW;
  }
  return GAME_DRAW;
}

/* A child of at whose move wins on the spot, or NO_NODE: looking one
   move ahead at each new node is what lets the tree see a threat. */
static uint32_t winning_child(mcts *m, uint32_t at) {
  const game_class *cls = m->cls;
  const node *parent = &m->nodes[at];
  for (uint32_t i = 0; i < parent->children; i++) {
    uint32_t id = parent->first_child + i;
    game_undo undo;
    cls->make(m->state, m->nodes[id].move, &undo);
    game_status status = cls->status(m->state);
    cls->unmake(m->state, m->nodes[id].move, &undo);
    if (status != GAME_ONGOING && status != GAME_DRAW &&
        (status == GAME_WIN_0) == (m->nodes[id].mover == 0))
      return id;
  }
  return NO_NODE;
}

/* One playout and its credit up the path; false when the limit stopped
   it before its end, with nothing credited. */
static bool one_playout(mcts *m, uint32_t *path, size_t path_capacity) {
  const game_class *cls = m->cls;
  size_t length = 0;
  uint32_t at = 0;
  path[length++] = at;
  game_status status = cls->status(m->state);
  while (m->nodes[at].expanded && !m->nodes[at].proven &&
         length < path_capacity && status == GAME_ONGOING) {
    at = select_child(m, at);
    path[length++] = at;
    if (!play(m, m->nodes[at].move)) break;
    status = cls->status(m->state);
  }
  if (status == GAME_ONGOING && !m->nodes[at].expanded && !m->nodes[at].proven &&
      length < path_capacity && !m->out_of_memory && expand(m, at)) {
    uint32_t chosen = winning_child(m, at);
    if (chosen == NO_NODE)
      chosen = m->nodes[at].first_child +
               rng_below(&m->random, m->nodes[at].children);
    at = chosen;
    path[length++] = at;
    play(m, m->nodes[at].move);
    status = cls->status(m->state);
  }
  node *leaf = &m->nodes[at];
  if (status != GAME_ONGOING && status != GAME_DRAW && !leaf->proven) {
    leaf->proven = (status == GAME_WIN_0) == (leaf->mover == 0) ? WON : LOST;
    prove_upwards(m, path, length - 1);
  }
  if (leaf->proven) {
    /* A proven node needs no playout: its result is known. */
    int winner = leaf->proven == WON ? leaf->mover : 1 - leaf->mover;
    status = winner == 0 ? GAME_WIN_0 : GAME_WIN_1;
  } else if (status == GAME_ONGOING) {
    status = m->out_of_memory ? GAME_DRAW : playout(m);
    if (status == GAME_ONGOING && m->limit->stopped) {
      take_back_all(m);
      return false;
    }
  }
  for (size_t i = 0; i < length; i++) {
    node *n = &m->nodes[path[i]];
    n->visits++;
    if (status == GAME_DRAW || status == GAME_ONGOING)
      n->reward += 0.5;
    else if ((status == GAME_WIN_0) == (n->mover == 0))
      n->reward += 1.0;
  }
  take_back_all(m);
  return true;
}

/* The move to play: a proven win, else the most visited of those not
   proven lost (of all, when every one is). */
static uint32_t most_visited_child(const mcts *m, uint32_t at) {
  const node *parent = &m->nodes[at];
  uint32_t best = parent->first_child;
  for (uint32_t i = 0; i < parent->children; i++) {
    uint32_t id = parent->first_child + i;
    const node *child = &m->nodes[id], *held = &m->nodes[best];
    if (child->proven == WON) return id;
    bool child_lost = child->proven == LOST, held_lost = held->proven == LOST;
    if (held_lost != child_lost ? held_lost : child->visits > held->visits)
      best = id;
  }
  return best;
}

void search_mcts(const game_class *cls, void *state,
                 const mcts_options *options, search_limit *limit,
                 mcts_result *result) {
  memset(result, 0, sizeof *result);
  result->best = GAME_NO_MOVE;
  if (cls->status(state) != GAME_ONGOING) return;
  game_move first[GAME_MAX_MOVES];
  if (cls->moves(state, first) == 0) return;
  result->best = first[0];

  mcts m = {0};
  m.cls = cls;
  m.state = state;
  m.options = options;
  m.limit = limit;
  rng_seed(&m.random, options->seed);
  m.max_nodes = options->max_tree_nodes ? options->max_tree_nodes : 1u << 22;
  if (m.max_nodes < 1 + GAME_MAX_MOVES) m.max_nodes = 1 + GAME_MAX_MOVES;
  m.capacity = 1024;
  m.nodes = malloc(m.capacity * sizeof *m.nodes);
  uint32_t path[SEARCH_MAX_PLY * 4];
  if (!m.nodes) return;
  memset(&m.nodes[0], 0, sizeof m.nodes[0]);
  m.nodes[0].first_child = NO_NODE;
  m.nodes[0].mover = (uint8_t)(1 - cls->turn(state));
  m.count = 1;
  if (!expand(&m, 0)) {
    free(m.nodes);
    return;
  }

  /* The tick follows the playout, so a budget of n plays exactly n. */
  while (!m.out_of_memory && !limit->stopped && !m.nodes[0].proven) {
    if (!one_playout(&m, path, sizeof path / sizeof path[0])) break;
    result->playouts++;
    /* A playout costs far more than a clock read: check every time. */
    if (limit_tick(limit) ||
        (limit->max_seconds > 0 && limit_check_slow(limit)))
      break;
  }

  uint32_t at = 0;
  while (m.nodes[at].expanded && result->pv_length < SEARCH_MAX_PLY) {
    uint32_t child = most_visited_child(&m, at);
    if (m.nodes[child].visits == 0) break;
    result->pv[result->pv_length++] = m.nodes[child].move;
    at = child;
  }
  uint32_t best = most_visited_child(&m, 0);
  const node *b = &m.nodes[best];
  if (b->visits > 0) {
    result->best = b->move;
    result->value = b->reward / b->visits;
    result->best_visits = b->visits;
  }
  /* The root's mover is the side that is not to move. */
  result->proven = -m.nodes[0].proven;
  if (result->proven) result->value = result->proven > 0 ? 1.0 : 0.0;
  result->plies = m.plies;
  result->tree_nodes = m.count;
  free(m.nodes);
  free(m.steps);
}
