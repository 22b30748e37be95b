/* okr.h - the Oklahoma rummy rules engine: the one public header.
 *
 * Pure: no I/O, no heap, no clock, no globals. A game is a plain value (copy it with =);
 * every function works on caller memory. Rule numbers (RULES x.y) refer to the rule book,
 * whose project-side description is docs/rules.md.
 */
#ifndef OKR_H
#define OKR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Errors -------------------------------------------------------------------------- */

enum {
    OKR_OK = 0,
    OKR_EINVAL = -1,    /* bad configuration or argument; okr_refusal says which */
    OKR_EILLEGAL = -2,  /* action refused by a rule; okr_refusal names the rule */
    OKR_EOVERFLOW = -3, /* caller's buffer too small */
    OKR_EPHASE = -4     /* call not valid in this phase (e.g. next hand while a hand runs) */
};

/* Why something was refused (RULES 8.1): a rule number such as "4.5" or "G5", and a
 * one-line reason. Both are NUL-terminated. */
typedef struct okr_refusal {
    char rule[16];
    char reason[120];
} okr_refusal;

/* The rule of a refusal that comes from one of the engine's own decisions (docs/rules.md,
 * "Decisions of the engine"), not from the rule book: (a) new melds are laid three cards at
 * a time. */
#define OKR_RULE_THREE_CARDS "decision(a)"

/* ---- Cards (RULES 1) ------------------------------------------------------------------ */

/* A card kind is suit * 13 + (rank - 1): ranks 1 (ace) .. 13 (king), suits 0..3 = clubs,
 * diamonds, hearts, spades. Kind 52 is the Joker. Copies of a kind are interchangeable
 * (RULES 1.3), so hands are multisets: uint8_t count[OKR_KINDS]. */
enum {
    OKR_KINDS = 53,
    OKR_JOKER = 52,
    OKR_NOCARD = 255,
    OKR_MAX_PLAYERS = 8,
    OKR_MAX_CARDS = 157,     /* 3 decks + 1 Joker */
    OKR_MAX_MELDS = 64,      /* melds on the table, all seats */
    OKR_MELD_CARDS = 28,     /* cards in one meld: 14-card run, or a german set */
    OKR_SPEC_CARDS = 14,     /* cards in one new-meld action */
    OKR_GIN_MELDS = 4,       /* melds in one gin knock arrangement */
    OKR_GIN_HAND_MAX = 11,   /* cards in a gin hand, at most (10 and the one drawn) */
    OKR_MAX_ACTIONS = 131072 /* enough for any legal-action list: the largest possible, a
                                hand holding all three packs facing a wild top card, has
                                64,879 (tests/engine/test_limits.c); real games stay
                                under a few hundred */
};

#define OKR_KIND(suit, rank) ((suit)*13 + (rank)-1)
#define OKR_SUIT(kind) ((kind) / 13)
#define OKR_RANK(kind) ((kind) % 13 + 1)

/* ---- Rules (RULES 1-7, G) -------------------------------------------------------------- */

enum { OKR_FAMILY_RUMMY = 0, OKR_FAMILY_GIN = 1 };
enum { OKR_QS_ANY = 0, OKR_QS_OUT_OR_PAIR, OKR_QS_LAST_CARD, OKR_QS_NEVER };
enum { OKR_ACE_LOW = 1, OKR_ACE_HIGH = 2, OKR_ACE_BOTH = 3 };
/* Who deals the next hand (option `dealer`, RULES 2.3). WINNER: the rule book's default (the
 * hand's winner; nobody out: to the left; gin draw: the same dealer). ROTATE: the deal passes
 * to the left after every hand, whatever happened, so hand h is always dealt by seat
 * (players - 2 + h) mod players: the arena's Decision for duplicate play, where hand h of every
 * seat rotation must give its pack to the same seats (docs/rules.md). */
enum { OKR_DEALER_WINNER = 0, OKR_DEALER_ROTATE = 1 };
/* How the stock is drawn (option `stock`, RULES 2.4, 4.2, G4). DECK: the rule book's one pile,
 * top card first. STREAMS: the arena's Decision for duplicate play (docs/rules.md): the stock
 * left after the deal is cut into one stream per seat (its k-th card is the one that seat
 * draws k-th, in every seat rotation of a deal); a seat whose stream is empty draws the last
 * card of the longest other stream. The next card a seat draws is uniform over the stock's
 * cards either way. */
enum { OKR_STOCK_DECK = 0, OKR_STOCK_STREAMS = 1 };
enum {
    OKR_VALUES_LAWS = 0,
    OKR_VALUES_PARLETT,
    OKR_VALUES_ARLINGTON,
    OKR_VALUES_GERMAN,
    OKR_VALUES_GIN
};

/* Every field is a named option (okr_rules_set). A preset fills them all; users override
 * single ones. The full set is what a game record stores. */
typedef struct okr_rules {
    char preset[12];          /* laws parlett arlington german gin (informational) */
    uint8_t family;           /* OKR_FAMILY_*: derived from the preset, not settable */
    uint8_t values;           /* OKR_VALUES_*: card value table (RULES 7.1, G1) */
    uint8_t decks;            /* 1..3 (RULES 1.5) */
    uint8_t jokers;           /* 0..1; 0 where the preset has no Joker values (RULES 1.2) */
    uint8_t hand_size;        /* cards dealt to each player (RULES 2.4) */
    uint8_t min_players;      /* RULES 2.1 */
    uint8_t max_players;      /* RULES 2.1 */
    uint8_t wild_twos;        /* every 2 is wild (RULES 1.4) */
    uint8_t ace;              /* OKR_ACE_*: where an ace may stand in a run (RULES 3.3, G1) */
    uint8_t set_max;          /* largest set; 0 = unlimited (RULES 3.2) */
    uint8_t run_max;          /* largest run; 0 = the ladder's length (RULES 3.3, 3.4) */
    uint8_t all_twos;         /* a set of only twos is allowed (RULES 3.6) */
    uint8_t deuce_as_qs;      /* a 2 may stand for the Q of spades (RULES 3.7) */
    uint8_t take_add;         /* pile may be taken onto an own meld, 4.3(a) */
    uint8_t take_joker;       /* pile may be taken by replacing the Joker, 4.3(b) */
    uint8_t upcard_round;     /* laws/parlett first round (RULES 6.1) */
    uint8_t claims;           /* german out-of-turn claims (RULES 6.G) */
    uint8_t qs_discard;       /* OKR_QS_* (RULES 4.5) */
    uint16_t out_bonus;       /* going out (RULES 7.2) */
    uint8_t out_first_turn;   /* going-out bonus also on the first turn (RULES 7.2) */
    uint16_t concealed_bonus; /* RULES 7.3; 0 = none */
    uint16_t winner_bonus;    /* RULES 7.4 */
    uint8_t settlement;       /* laws settlement of final totals (RULES 7.6) */
    uint16_t target;          /* game target (RULES 7.4, G8); 0 = none: max_hands hands */
    uint16_t max_turns;       /* safety cap per hand (RULES 4.9) */
    uint16_t max_hands;       /* safety cap per game (RULES 7.7) */
    uint8_t ace_gin_only;     /* gin: ace upcard means only gin ends the hand (G2) */
    uint8_t spade_double;     /* gin: spade upcard doubles the hand score (G2) */
    uint16_t gin_bonus;       /* gin: G7 */
    uint16_t undercut_bonus;  /* gin: G7 */
    uint8_t dealer;           /* OKR_DEALER_*: who deals the next hand (RULES 2.3) */
    uint8_t stock;            /* OKR_STOCK_*: one stock, or one stream per seat (RULES 4.2) */
} okr_rules;

/* Fill *r with a preset: "laws", "parlett", "arlington", "german", "gin". OKR_EINVAL if the
 * name is unknown. */
int okr_rules_preset(okr_rules *r, const char *name, okr_refusal *why);

/* Set one option from text ("qs_discard", "any"). OKR_EINVAL (with a message naming the
 * option and its rule) for an unknown option or a value out of range. */
int okr_rules_set(okr_rules *r, const char *option, const char *value, okr_refusal *why);

/* Check a whole configuration for a table of `players` (RULES 1.5, 2.1). */
int okr_rules_check(const okr_rules *r, int players, okr_refusal *why);

/* Write every option as "name=value" separated by spaces, in a fixed order. Returns the
 * length written (excluding NUL) or OKR_EOVERFLOW. */
int okr_rules_format(const okr_rules *r, char *buf, size_t cap);

/* Enumerate option names: returns the i-th option name, or NULL past the end. */
const char *okr_rules_option_name(int i);

/* Total cards in the pack under these rules. */
int okr_pack_size(const okr_rules *r);

/* ---- Melds ----------------------------------------------------------------------------- */

enum { OKR_SET = 1, OKR_RUN = 2 };

/* Ladder positions for runs (RULES 3.3): 0 = low ace, 1 = two, ..., 12 = king,
 * 13 = high ace. */
#define OKR_POS_RANK(pos) ((pos) == 13 ? 1 : (pos) + 1)

/* A meld on the table. Invariant: card[i] is a physical kind held in the meld, as[i] the
 * kind it counts as (== card[i] for a natural, the declaration for a wild, RULES 3.5).
 * Runs keep their cards in ladder order starting at position lo. Sets keep them in the
 * order they were laid. */
typedef struct okr_meld {
    uint8_t owner;
    uint8_t type; /* OKR_SET or OKR_RUN */
    uint8_t n;    /* number of cards */
    uint8_t lo;   /* runs: ladder position of card[0]; sets: 0 */
    uint8_t rank; /* sets: the rank; runs: 0 */
    uint8_t suit; /* runs: the suit; sets: 0 */
    uint8_t card[OKR_MELD_CARDS];
    uint8_t as[OKR_MELD_CARDS];
} okr_meld;

/* A new meld as an action carries it (see "Actions"). Same conventions as okr_meld. */
typedef struct okr_spec {
    uint8_t type;
    uint8_t n;
    uint8_t lo;
    uint8_t card[OKR_SPEC_CARDS];
    uint8_t as[OKR_SPEC_CARDS];
} okr_spec;

/* ---- Actions ---------------------------------------------------------------------------- */

/* Canonical order of a legal-action list: by type in this enum's order, then by the fields
 * as documented in docs/engine.md. */
enum {
    OKR_A_DRAW = 1, /* draw the top stock card (RULES 4.2, G4) */
    OKR_A_TAKE,     /* take the pile / upcard / top discard (4.3, 6.1, G3, G4) */
    OKR_A_MELD,     /* lay a new meld from the hand (4.4) */
    OKR_A_ADD,      /* add one hand card to an own meld (4.4, 3.8) */
    OKR_A_REPLACE,  /* put the natural in place of an own Joker, Joker to hand (5.2) */
    OKR_A_DISCARD,  /* discard one card, ending the turn (4.5, G4) */
    OKR_A_CLAIM,    /* german: claim the top discard out of turn (6.G) */
    OKR_A_KNOCK,    /* gin: discard and knock with a declared arrangement (G5) */
    OKR_A_PASS      /* decline the upcard or a claim; end a claim's meld (6.1, 6.G, G3) */
};

/* How a TAKE or CLAIM melds the top card (RULES 4.3). */
enum {
    OKR_HOW_PLAIN = 0, /* gin: the top discard goes to the hand, no meld */
    OKR_HOW_NEW = 1,   /* 4.3(c): a new meld with cards from the hand (spec) */
    OKR_HOW_ADD = 2,   /* 4.3(a): onto own meld `meld` at position `pos`, counting as `as` */
    OKR_HOW_JOKER = 3  /* 4.3(b): in place of own Joker in meld `meld` */
};

/* A gin meld in a knock: natural cards, sets in suit order, runs in rank order. */
typedef struct okr_ginmeld {
    uint8_t n;
    uint8_t card[13];
} okr_ginmeld;

typedef struct okr_action {
    uint8_t type;   /* OKR_A_* */
    uint8_t seat;   /* who acts */
    uint8_t how;    /* OKR_HOW_* for TAKE and CLAIM */
    uint8_t card;   /* DISCARD/KNOCK: the discard; ADD: the card; TAKE/CLAIM ADD: top card */
    uint8_t as;     /* ADD and HOW_ADD: the kind the card counts as */
    uint8_t meld;   /* ADD, REPLACE, HOW_ADD, HOW_JOKER: meld index on the table */
    uint8_t pos;    /* ADD, HOW_ADD: 255 for a set; the run's ladder position otherwise */
    uint8_t nmelds; /* KNOCK: melds declared */
    union {
        okr_spec spec;                    /* MELD and HOW_NEW */
        okr_ginmeld knock[OKR_GIN_MELDS]; /* KNOCK arrangement */
    } u;
} okr_action;

/* ---- Events ----------------------------------------------------------------------------- */

/* What one accepted action did, as the whole table may learn it. `card` is OKR_NOCARD in a
 * redacted copy when the seat may not know it (the card drawn from the stock). */
typedef struct okr_event {
    uint32_t seq; /* 1, 2, ... within the game */
    uint8_t seat;
    uint8_t type; /* OKR_A_*, or OKR_EV_* below */
    uint8_t how;
    uint8_t card;
    uint8_t meld;   /* meld created or changed, or 255 */
    uint8_t taken;  /* cards that went to the hand from the pile */
    uint8_t hand_n; /* the acting seat's hand size afterwards */
    uint8_t ended;  /* nonzero: this action ended the hand (an OKR_END_* value) */
} okr_event;

/* Copy of *e as `seat` may see it (RULES 8.3). */
void okr_event_redact(const okr_event *e, int seat, okr_event *out);

/* ---- Game ------------------------------------------------------------------------------- */

enum {
    OKR_PH_UPCARD = 1, /* laws/parlett upcard round (6.1): TAKE (new meld) or PASS */
    OKR_PH_GIN_UPCARD, /* gin first turn (G3): TAKE or PASS */
    OKR_PH_DRAW,       /* start of a turn: DRAW or TAKE */
    OKR_PH_CLAIM,      /* german claim window (6.G): CLAIM or PASS */
    OKR_PH_CLAIM_MELD, /* german: claimant may ADD to the claimed meld, then PASS */
    OKR_PH_PLAY,       /* after drawing: MELD/ADD/REPLACE/DISCARD, gin DISCARD/KNOCK */
    OKR_PH_HAND_OVER,  /* hand scored; okr_next_hand() deals the next */
    OKR_PH_GAME_OVER
};

enum {
    OKR_END_NONE = 0,
    OKR_END_OUT,      /* a player went out (4.6) */
    OKR_END_STOCK,    /* the stock ran out (4.7) */
    OKR_END_CAP,      /* max_turns reached (4.9) */
    OKR_END_KNOCK,    /* gin: knocker had less deadwood (G7) */
    OKR_END_UNDERCUT, /* gin: defender undercut the knocker (G7) */
    OKR_END_GIN,      /* gin: knocker went gin (G7) */
    OKR_END_DRAWN     /* gin: two stock cards left, or the cap (G6, 4.9) */
};

/* Per-hand report (RULES 8.2). Scores are points; all arithmetic is integer. */
typedef struct okr_hand_result {
    uint8_t ended;                      /* OKR_END_* */
    int8_t winner;                      /* went out / scored, -1 if nobody */
    int8_t knocker;                     /* gin: the knocker, else -1 */
    int32_t melded[OKR_MAX_PLAYERS];    /* credit for melded cards (7.1) */
    int32_t debit[OKR_MAX_PLAYERS];     /* cards left in hand, as a negative number */
    int32_t out_bonus[OKR_MAX_PLAYERS]; /* 7.2 */
    int32_t concealed[OKR_MAX_PLAYERS]; /* 7.3, kept apart from the score */
    int32_t deadwood[OKR_MAX_PLAYERS];  /* gin: after melds and lay-offs (G5) */
    int32_t score[OKR_MAX_PLAYERS];     /* this hand's score */
    int32_t total[OKR_MAX_PLAYERS];     /* running game score afterwards */
    /* gin, a knock (G5): what the table sees face up at the showdown. The knocker's melds
     * as declared and the cards left over (its deadwood), and each card the defender laid
     * off: layoff_card[i] went onto the knocker's meld layoff_meld[i] (an index into
     * knock_meld). Lay-offs are the ones that leave the defender least deadwood; none on
     * gin. All zero when no one knocked. */
    uint8_t knock_nmelds;
    okr_ginmeld knock_meld[OKR_GIN_MELDS];
    uint8_t knock_dead_n;
    uint8_t knock_dead[OKR_GIN_HAND_MAX];
    uint8_t layoff_n;
    uint8_t layoff_card[OKR_GIN_HAND_MAX];
    uint8_t layoff_meld[OKR_GIN_HAND_MAX];
} okr_hand_result;

/* End-of-game report (RULES 7.4-7.7, G8). */
typedef struct okr_game_result {
    uint8_t winners;                    /* bit i set: seat i won (ties share) */
    int32_t score[OKR_MAX_PLAYERS];     /* game score (hands only) */
    int32_t concealed[OKR_MAX_PLAYERS]; /* sum of concealed bonuses */
    int32_t winner_bonus[OKR_MAX_PLAYERS];
    int32_t final_total[OKR_MAX_PLAYERS]; /* 7.5 */
    uint8_t placement[OKR_MAX_PLAYERS];   /* 1 = best; ties share the better place */
    int32_t settlement[OKR_MAX_PLAYERS];  /* laws 7.6, zero-sum; 0 elsewhere */
} okr_game_result;

/* The whole game. All fields are read-only for callers; only okr_* functions change them.
 * Invariant: every card of the pack is in exactly one place: a hand, a meld, the stock or
 * the pile. */
typedef struct okr_game {
    okr_rules rules;
    uint64_t seed; /* hands after the first are dealt from this */
    uint8_t players;
    uint8_t phase; /* OKR_PH_* */
    uint8_t dealer;
    uint8_t turn_seat;     /* whose turn it is */
    uint8_t to_act;        /* who must act now (differs during claims) */
    uint8_t discarder;     /* who put the top card on the pile (6.G) */
    uint8_t claim_meld;    /* OKR_PH_CLAIM_MELD: meld being extended */
    uint8_t upcard_passes; /* passes so far in an upcard round */
    uint8_t stock_locked;  /* this turn must draw from the stock (6.1, G3) */
    uint8_t upcard;        /* the hand's upcard kind (gin knock limit, G2) */
    uint8_t stock_n, pile_n, meld_n;
    uint16_t hand_no; /* 1, 2, ... */
    uint16_t turns;   /* turns begun in this hand (4.9) */
    uint32_t seq;     /* events so far in the game */
    uint8_t hand_n[OKR_MAX_PLAYERS];
    uint8_t hand[OKR_MAX_PLAYERS][OKR_KINDS];
    uint8_t drew[OKR_MAX_PLAYERS];          /* turns in which the seat drew, capped at 2 (6.3) */
    uint8_t melded_before[OKR_MAX_PLAYERS]; /* seat had melds before this turn (7.3) */
    uint8_t stock[OKR_MAX_CARDS];           /* stock[stock_n - 1] is the top */
    uint8_t pile[OKR_MAX_CARDS];            /* pile[pile_n - 1] is the top */
    okr_meld meld[OKR_MAX_MELDS];
    int32_t score[OKR_MAX_PLAYERS];     /* running game score */
    int32_t concealed[OKR_MAX_PLAYERS]; /* concealed bonuses so far (7.3) */
    okr_hand_result last;               /* valid in HAND_OVER and GAME_OVER */
    okr_game_result result;             /* valid in GAME_OVER */
    /* stock=streams: cards left in each seat's stream. The stock holds the streams as blocks,
     * seat 0's at the bottom (stock[0 .. stream_n[0] - 1]), then seat 1's, ...; a block's
     * highest index is the seat's next card. All zero under stock=deck. */
    uint8_t stream_n[OKR_MAX_PLAYERS];
} okr_game;

/* Start a game and deal its first hand (RULES 2.3-2.5). With pack == NULL the hand is
 * shuffled from `seed`; otherwise pack[0..n-1] is the pack in dealing order (pack[0] is
 * dealt first) and must be a permutation of the configured pack. Later hands are dealt from
 * `seed` (okr_next_hand). OKR_EINVAL with *why filled on a bad configuration or pack. */
int okr_game_init(okr_game *g, const okr_rules *r, int players, uint64_t seed, const uint8_t *pack,
                  int n, okr_refusal *why);

/* In OKR_PH_HAND_OVER: deal the next hand, from pack if not NULL, else from the seed.
 * OKR_EPHASE in any other phase; OKR_EINVAL for a bad pack. */
int okr_next_hand(okr_game *g, const uint8_t *pack, int n, okr_refusal *why);

/* The pack shuffled for hand `hand_no` (1-based) of a game with this seed: writes
 * okr_pack_size(r) kinds in dealing order. Pinned algorithm: docs/engine.md. */
int okr_shuffle(const okr_rules *r, uint64_t seed, int hand_no, uint8_t *out, int cap);

/* Legal actions of the seat that must act (g->to_act), in canonical order. Returns the count
 * (0 only in HAND_OVER and GAME_OVER) or OKR_EOVERFLOW if cap is too small. */
int okr_legal(const okr_game *g, okr_action *out, int cap);

/* Put *a in the form okr_legal lists: fields the action type does not use are zeroed, a
 * set's cards are sorted, a 2 in a set declares clubs unless it stands for the Q of spades,
 * and the 2s of a run stand in kind order (choices no rule tells apart, docs/engine.md).
 * Two actions mean the same iff their normalised forms are equal byte for byte (memcmp).
 * okr_apply normalises before it checks. */
void okr_action_normalize(const okr_rules *r, okr_action *a);

/* Apply one action. On success returns OKR_OK and, if ev is not NULL, fills *ev. On refusal
 * returns OKR_EILLEGAL, fills *why with the rule and reason, and leaves *g unchanged. */
int okr_apply(okr_game *g, const okr_action *a, okr_event *ev, okr_refusal *why);

/* 64-bit digest of everything that determines the game's future (FNV-1a over a canonical
 * serialisation; independent of padding and platform). */
uint64_t okr_digest(const okr_game *g);

/* Check the card-conservation invariant. OKR_OK or OKR_EINVAL. */
int okr_check(const okr_game *g);

/* ---- Views (RULES 8.3) ----------------------------------------------------------------- */

typedef struct okr_view {
    uint8_t seat, players, phase, dealer, turn_seat, to_act, stock_n, pile_n, meld_n;
    uint8_t stock_locked, upcard;
    uint16_t hand_no, turns;
    uint8_t hand[OKR_KINDS];         /* own hand only */
    uint8_t hand_n[OKR_MAX_PLAYERS]; /* every hand's size (law 20) */
    uint8_t pile[OKR_MAX_CARDS];     /* whole discard pile, bottom first */
    okr_meld meld[OKR_MAX_MELDS];
    int32_t score[OKR_MAX_PLAYERS];
    int32_t concealed[OKR_MAX_PLAYERS];
    uint8_t drew[OKR_MAX_PLAYERS];
    uint8_t melded_before[OKR_MAX_PLAYERS];
    uint8_t discarder, claim_meld, upcard_passes;
} okr_view;

/* What `seat` may know of *g. Never the stock's order, never another hand. */
void okr_view_of(const okr_game *g, int seat, okr_view *v);

/* A whole game consistent with what v->seat knows: the cards it cannot see (other hands and
 * the stock) are shuffled from `seed` and dealt to the other hands by their sizes, the rest
 * forming the stock. For simulation by bots (determinised search); later hands of *out are
 * dealt from `seed`. OKR_EINVAL if the view does not fit the rules' pack. */
int okr_determinize(const okr_rules *r, const okr_view *v, uint64_t seed, okr_game *out,
                    okr_refusal *why);

/* okr_determinize, with cards the table saw go into other hands (a pile taken, a Joker taken
 * back) and not seen leaving them: known[s][k] copies of kind k are dealt to seat s, the
 * rest as okr_determinize does (with no known card, the same world for the same seed). NULL:
 * none known. OKR_EINVAL (RULES 8.3) if a known card is not unseen, or a hand would hold
 * more known cards than its size, or the view's own seat has known cards. */
int okr_determinize_known(const okr_rules *r, const okr_view *v,
                          const uint8_t known[OKR_MAX_PLAYERS][OKR_KINDS], uint64_t seed,
                          okr_game *out, okr_refusal *why);

/* ---- Positions: a game from a description (engine/src/position.c) ----------------------- */

/* OKR_POS_AUTO in to_act, discarder or upcard: let okr_game_from_position choose (see there). */
enum { OKR_POS_AUTO = 254 };

/* A described moment of a hand in progress, for puzzles, lessons and tests. The fields mean
 * what the okr_game fields of the same name mean; hand sizes are counted from hand[]. */
typedef struct okr_position {
    uint8_t players;
    uint8_t phase; /* OKR_PH_UPCARD .. OKR_PH_PLAY: someone must act */
    uint8_t dealer, turn_seat;
    uint8_t to_act;        /* OKR_POS_AUTO: turn_seat */
    uint8_t discarder;     /* OKR_POS_AUTO: the dealer in an upcard phase, else the seat before
                              turn_seat */
    uint8_t upcard;        /* OKR_POS_AUTO: pile[0] (the gin knock limit, G2) */
    uint8_t claim_meld;    /* OKR_PH_CLAIM_MELD: the meld being extended; else ignored */
    uint8_t upcard_passes; /* passes so far in an upcard round */
    uint8_t stock_locked;  /* this turn must draw from the stock (6.1, 6.G, G3) */
    uint8_t shuffle_stock; /* nonzero: stock[] is ignored; the cards in no hand, meld or pile
                              form the stock, shuffled from (seed, hand_no) */
    uint16_t hand_no, turns;
    uint32_t seq;
    uint64_t seed; /* later hands are dealt from it, as in okr_game_init */
    uint8_t hand[OKR_MAX_PLAYERS][OKR_KINDS];
    uint8_t stock_n, pile_n, meld_n;
    uint8_t stock[OKR_MAX_CARDS]; /* stock[stock_n - 1] is the next card drawn */
    uint8_t pile[OKR_MAX_CARDS];  /* pile[pile_n - 1] is the top */
    okr_meld meld[OKR_MAX_MELDS]; /* owner, type, n, lo, card[], as[]; rank and suit derived */
    int32_t score[OKR_MAX_PLAYERS];
    int32_t concealed[OKR_MAX_PLAYERS];
    uint8_t drew[OKR_MAX_PLAYERS];          /* 0..2 (6.3) */
    uint8_t melded_before[OKR_MAX_PLAYERS]; /* 0 or 1 (7.3) */
    /* stock=streams: the streams' sizes, as in okr_game (they add up to stock_n); all zero:
     * the stock is cut into streams afresh as a deal cuts it. Ignored under stock=deck. */
    uint8_t stream_n[OKR_MAX_PLAYERS];
} okr_position;

/* The position *g is in (every field explicit, shuffle_stock 0). Meaningful while a hand
 * runs; okr_game_from_position(r, that) rebuilds a game with the same okr_digest. */
void okr_position_of(const okr_game *g, okr_position *p);

/* Build *g from a described position after checking that it is one a game under r can be
 * in: every card of the pack exactly once (1.2), melds valid (3) and none in gin (G5), hand
 * sizes and stock size fitting the phase (2.4, 4.1, 4.6, 4.7, G4, G6), seats in range, the
 * game not already over (7.4, G8). Set declarations of 2s are normalised as in
 * okr_action_normalize. OKR_EINVAL with *why (rule and reason) otherwise; *g is then
 * unchanged. */
int okr_game_from_position(okr_game *g, const okr_rules *r, const okr_position *p,
                           okr_refusal *why);

/* ---- Notation (docs/notation.md) --------------------------------------------------------- */

/* Card: "AS", "TH" (or "10H"), "2C", "QS", "JK". Returns the kind, or -1. `end` (may be NULL)
 * receives the first unparsed character. */
int okr_card_parse(const char *s, const char **end);
/* Writes 2 characters and a NUL; returns buf. */
char *okr_card_str(int kind, char buf[3]);

/* Parse a whitespace-separated list of cards into out (at most cap). Returns the count, or
 * OKR_EINVAL (why->reason says which token). */
int okr_cards_parse(const char *s, uint8_t *out, int cap, okr_refusal *why);

/* Parse one action in text for the seat that must act in *g ("draw", "meld 4H 2C=5H 6H",
 * "discard QS", ...). OKR_EINVAL on a malformed line; legality is okr_apply's business. */
int okr_action_parse(const okr_game *g, const char *s, okr_action *a, okr_refusal *why);
/* Format an action in the notation; returns the length, OKR_EOVERFLOW if cap is too small,
 * or OKR_EINVAL (buf set to "") for an action that has no notation (unknown type or how,
 * counts out of range). */
int okr_action_format(const okr_action *a, char *buf, size_t cap);

/* ---- Helpers for bot authors ------------------------------------------------------------- */

/* Value of a card left in the hand in gin (G1), or the rummy hand debit (7.1) as a positive
 * number. */
int okr_card_debit(const okr_rules *r, int kind);

/* Every minimal meld (three cards) the multiset `hand` can lay under r, in canonical
 * order. Returns the count or OKR_EOVERFLOW. */
int okr_find_melds(const okr_rules *r, const uint8_t hand[OKR_KINDS], okr_spec *out, int cap);

/* Gin: least deadwood of `hand` over all arrangements into melds (G5), with one best
 * arrangement (ties broken by the canonical order). Returns the deadwood. */
int okr_gin_best(const okr_rules *r, const uint8_t hand[OKR_KINDS], okr_ginmeld *melds,
                 int *nmelds);

/* Gin: the most deadwood a knock may leave with this upcard (G2): the upcard's value; 0
 * when only gin may end the hand (an ace upcard under ace_gin_only, no upcard). 0 outside
 * gin, where nobody knocks. The value okr_apply checks a knock against. */
int okr_knock_limit(const okr_rules *r, int upcard);

#ifdef __cplusplus
}
#endif
#endif
