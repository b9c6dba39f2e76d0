/*
 * A model of the append protocol of a game (issue 18, item 5), checked exhaustively with Spin
 * for small bounds by `npm run test:model` (test/model/run.mjs). docs/append-protocol.md
 * explains the layout, the design and what is checked.
 *
 * What it models: two writers (two Lambda instances, or two processes on one table), each with
 * its own cached fold of the game, taking commands from clients, deciding them in groups
 * (group commit) and writing each group as ONE item keyed by its first seq with a conditional
 * put (attribute_not_exists); puts that fail cleanly, puts that land with their answer lost
 * (ambiguous), the SDK's retry of a landed put meeting its own item, cold loads that start from
 * a snapshot, clients that retry after a 503 (possibly at the other writer) and clients that
 * time out and resend while their first request is still queued.
 *
 * The code each step stands for (written before group commit existed, as its design; the code
 * now implements it as named here).
 *   Client                 an HTTP client with a fixed commandId: clients/java ArbiterClient
 *                          (retries a 503 and a time-out with the same commandId), the web app,
 *                          test/reliability's drivers.
 *   Writer                 GameService.submit -> decideAndAppend (functions/application/
 *                          gameService.ts) -> GroupCommit.submit (groupCommit.ts), for one
 *                          game; the group queue is GroupQueue (functions/application/
 *                          groupQueue.ts) -> GroupCommit.appendGroup.
 *   coldLoad / catchUp     GameCache.load(gameId) / GameCache.load(gameId, true)
 *                          (functions/application/gameCache.ts): EventStore.read after the
 *                          cached version, folding the commits that continue it (commit.seq ===
 *                          version + 1); group items read by DynamoEventStore.read (a read that
 *                          starts inside an item reads its tail: itemHolding), and a cold load
 *                          starting from a snapshot (GameCache.fromSnapshot, snapshots.ts).
 *   decide                 GroupCommit.appendGroup's loop: findRetry (a commandId in the fold is
 *                          answered with its stored commit), authorize + decideGame (the rules
 *                          may refuse), seq = version + 1 for each accepted command in turn:
 *                          GroupCommit.planGroup, the whole group in arrival order.
 *   put                    EventStore.append(commit) = PutItem with ConditionExpression
 *                          attribute_not_exists(sk) (functions/store/dynamoStore.ts):
 *                          EventStore.appendGroup(commits), one item keyed by the first seq.
 *   after a failed put     GroupCommit.appendGroup's catch: cache.forget(gameId), StoreUnavailable (503).
 *   after a collision      GroupCommit.appendGroup: cache.load(gameId, true), then the loop again, at
 *                          most MAX_APPEND_ATTEMPTS times (then 503).
 *
 * Properties. Each assertion carries its property's tag in a comment on its line; the runner
 * maps a failing line back to the tag.
 *   P1  every acknowledged command is stored exactly once, at the seq its acknowledgement names
 *       (end state; P3 checks it when it is acknowledged);
 *   P2  the stored seqs are exactly 1..max, no hole and no seq twice, each item starting right
 *       after the previous one ends (checked at every put, and walked at the end);
 *   P3  an acknowledgement (201 new or 200 stored) names the seq where the command is stored
 *       (checked at every acknowledgement, read by its client or not);
 *   P4  no command is ever stored twice, acknowledged or not (checked at every put, and at the end);
 *   P5  a refusal by the rules is never given for a command that is stored (checked when the
 *       refusal is confirmed: the put of its group lands, or a read finds nothing newer);
 *   P6  every request gets an answer: the end state has every client finished and every writer
 *       idle (pan also reports any other end state as an error).
 *
 * Bounds (each -D overridable): NC commands (one client each), 2 writers, groups of at most G
 * commands, MAXSEND requests per command (the first and its retries), MAXATT put attempts per
 * group (MAX_APPEND_ATTEMPTS is 8 in the code), and budgets of fault events for the whole run:
 * LOST ambiguous puts, CLEAN clean failures, TIMEOUTS client time-outs, REFUSALS refusals by
 * the rules. Every loop is bounded by these.
 *
 * Variants. With one of these -D flags the model is deliberately broken (BROKEN_*) or follows a
 * reading of the design that the model shows to be unsafe (DESIGN_*); the runner checks that
 * Spin finds the violation it names.
 *   BROKEN_NO_CONDITION          the put has no attribute_not_exists condition           P2
 *   BROKEN_KEY_LAST              an item is keyed by its LAST seq                         P2
 *   BROKEN_ACK_AFTER_FAILURE     a failed put acknowledges its group ("it probably landed") P3
 *   BROKEN_ADVANCE_AFTER_FAILURE after a failed put the cache moves on as if stored       P3
 *   BROKEN_NO_RETRY_LOOKUP       no findRetry: a stored commandId is decided again        P4
 *   BROKEN_SILENT_GIVE_UP        a group out of attempts is dropped without its 503s      P6
 *   DESIGN_REFUSE_AT_ONCE        a refusal answered at once, on a cache that may be stale  P5
 *   DESIGN_NO_GROUP_DEDUPE       a commandId twice in one group (a resend after a client's
 *                                time-out, queued behind its first request) not recognised P4
 *   DESIGN_SNAPSHOT_MID_ITEM     a cold load starts from a snapshot at a seq inside an item P2
 */

#ifndef NC
#define NC 3
#endif
#ifndef G
#define G 3
#endif
#ifndef MAXSEND
#define MAXSEND 2
#endif
#ifndef MAXATT
#define MAXATT 2
#endif
#ifndef LOST
#define LOST 1
#endif
#ifndef CLEAN
#define CLEAN 1
#endif
#ifndef TIMEOUTS
#define TIMEOUTS 1
#endif
#ifndef REFUSALS
#define REFUSALS 1
#endif

/* Seqs (and item keys) 1..MAXSEQ. A correct protocol stores at most NC commits; the spare G
   lets a broken variant run on to the assertion that catches it. */
#define MAXSEQ (NC + G)
#define QCAP (NC * MAXSEND)

/* Answers, as the HTTP API gives them: 201 new commit, 200 the stored commit of a retried
   commandId, 4xx refused by the rules, 503 retry later with the same commandId. */
mtype = { NEW, STORED, REFUSED, UNAVAILABLE };

/* The state of a queued command in its writer's current group. */
#define PENDING 0
#define ACCEPT 1    /* takes seq ver + gpos[i] in the item being written */
#define FOLLOW 2    /* same commandId as a command accepted earlier in this group */
#define REFUSE 3    /* refused; answered once the fold it was decided on is known to be the head */
#define DONE 4      /* answered */

/* Outcomes of a put, as the writer sees them. */
#define OK 0
#define COLLIDE 1   /* ConditionalCheckFailedException */
#define FAILED 2    /* an error: nothing stored, or stored with the answer lost */

/* ---- The store: the game's items in the table (functions/store/dynamoStore.ts). ---- */
byte itemLen[MAXSEQ + 2];          /* the item with sort key k holds itemLen[k] commits (0: none) */
byte itemFirst[MAXSEQ + 2];        /* ... of seqs itemFirst[k] .. itemFirst[k] + itemLen[k] - 1 */
byte itemCmd[(MAXSEQ + 2) * G];    /* ... their commandIds: itemCmd[k * G + j], j-th commit */
/* Views of the store for the properties (derived from the items; the protocol reads them
   only to stand for a snapshot's fold). */
byte seqCmd[MAXSEQ + 2];           /* the commandId stored at seq s */
byte seqCount[MAXSEQ + 2];         /* how many stored commits have seq s */
byte cmdCount[NC + 1];             /* how many stored commits carry commandId c */
byte storeMax;                     /* the highest stored seq */

/* ---- Fault budgets: the bounds of the exhaustive search. ---- */
byte lost = LOST;
byte cleanFails = CLEAN;
byte timeouts = TIMEOUTS;
byte refusals = REFUSALS;

/* ---- Requests and answers. ---- */
chan inbox[2] = [QCAP] of { byte, byte };    /* each writer's: commandId, request number */
chan answer[NC + 1] = [1] of { mtype };  /* each client's 503s */
byte waiting[NC + 1];   /* the number of the request client c waits for (0: none, it is done) */

/* ---- What the clients saw. ---- */
bool acked[NC + 1];
byte ackSeq[NC + 1];
byte clientsDone;
byte firstSent;         /* how many clients have sent their first request */

/* A writer answers queued command i. P3 is checked for every acknowledgement, whether its
   client still waits for it or not. An answer its client waits for ends the client's command
   (acknowledged, refused), or wakes the client to retry (503); any other is lost. */
inline reply(i, kind, s) {
  printf("writer %d -> client %d (request %d): %e seq %d\n", w, gc[i], gr[i], kind, s);
  if
  :: kind == NEW || kind == STORED ->
     assert(s >= 1 && s <= MAXSEQ && seqCount[s] == 1 && seqCmd[s] == gc[i])  /* P3 */
  :: else -> skip
  fi;
  if
  :: gr[i] == waiting[gc[i]] ->
     if
     :: kind == NEW || kind == STORED ->
        acked[gc[i]] = true; ackSeq[gc[i]] = s; waiting[gc[i]] = 0; clientsDone++
     :: kind == REFUSED -> waiting[gc[i]] = 0; clientsDone++
     :: kind == UNAVAILABLE -> answer[gc[i]]!UNAVAILABLE
     fi
  :: else -> skip   /* its client stopped waiting for this request */
  fi;
  gst[i] = DONE
}

/* GameCache.load(gameId, true): read the items after the cached version in key order and fold
   the commits that continue it (gameCache.ts folds a commit when seq === version + 1). */
inline catchUp() {
  x = ver + 1;
  do
  :: x > MAXSEQ -> break
  :: x <= MAXSEQ && itemLen[x] > 0 && itemFirst[x] == ver + 1 ->
     j = 0;
     do
     :: j < itemLen[x] -> known[itemCmd[x * G + j]] = ver + 1 + j; j++
     :: else -> break
     od;
     ver = ver + itemLen[x];
     x++
  :: else -> x++
  od
}

/* GameCache.load(gameId) on a process that holds no fold of the game (a cold Lambda, or after
   forget). From a snapshot (GameCache.fromSnapshot), the fold up to some seq x (its
   commandIds included: the recent ones, and the hashes of the others looked up in the store),
   then the items after it; x = 0 is the full read. */
inline coldLoad() {
  j = 1;
  do
  :: j <= NC -> known[j] = 0; j++
  :: else -> break
  od;
  /* Any stored seq may have a snapshot ... */
  x = 0;
  do
  :: x < storeMax -> x++
  :: break
  od;
#ifndef DESIGN_SNAPSHOT_MID_ITEM
  /* ... but one is used only where an item ends: the writer's version must be the last seq of
     an item, so that a stale put is keyed where an item already is. */
  j = 1;
  do
  :: j <= MAXSEQ && !(itemLen[j] > 0 && itemFirst[j] + itemLen[j] - 1 == x) -> j++
  :: else -> break
  od;
  if
  :: j > MAXSEQ -> x = 0     /* not the end of an item: no snapshot, the full read */
  :: else -> skip
  fi;
#endif
  if
  :: x > 0 -> printf("writer %d: cold load from the snapshot at seq %d\n", w, x)  /* reach: snapshot */
  :: else -> skip
  fi;
  j = 1;
  do
  :: j <= x -> known[seqCmd[j]] = j; j++
  :: else -> break
  od;
  ver = x;
  catchUp();
  cached = true
}

/* GroupCommit.planGroup: decide the queued commands in arrival order against the fold.
   k counts the accepted ones; accepted command i gets seq ver + gpos[i]. */
inline decide() {
  k = 0;
  i = 0;
  do
  :: i < n ->
     if
     :: gst[i] == DONE -> skip
     :: else ->
        c = gc[i];
        gst[i] = PENDING;
#ifndef BROKEN_NO_RETRY_LOOKUP
        /* findRetry: the commandId is in the fold: answer with the stored commit (200). */
        if
        :: known[c] != 0 -> reply(i, STORED, known[c])  /* reach: retry answered from the fold */
        :: else -> skip
        fi;
#endif
#ifndef DESIGN_NO_GROUP_DEDUPE
        /* The same commandId decided earlier in this group (a client's resend after a
           time-out, queued behind its first request) gets the same verdict (the same command
           on the same fold) and, if accepted, the same commit once it is written. */
        if
        :: gst[i] == PENDING ->
           j = 0;
           do
           :: j < i && !(gc[j] == c && (gst[j] == ACCEPT || gst[j] == REFUSE)) -> j++
           :: j < i && gc[j] == c && gst[j] == ACCEPT -> gst[i] = FOLLOW; gpos[i] = gpos[j];
              printf("writer %d: client %d's resend is in the same group\n", w, c); break  /* reach: resend in the same group */
           :: j < i && gc[j] == c && gst[j] == REFUSE -> gst[i] = REFUSE; break
           :: j >= i -> break
           od
        :: else -> skip
        fi;
#endif
        if
        :: gst[i] == PENDING ->
           /* authorize + decideGame: the rules accept, or (within the budget) refuse. */
           if
           :: true -> k++; gst[i] = ACCEPT; gpos[i] = k;
              printf("writer %d: accepts client %d's command as seq %d\n", w, c, ver + k)
           :: refusals > 0 -> refusals--;
              printf("writer %d: the rules refuse client %d's command on the fold at seq %d\n", w, c, ver + k);
#ifdef DESIGN_REFUSE_AT_ONCE
              /* "answered at once with its error", on a fold that may be stale: the client
                 reading it must not be told "refused" about a stored command. */
              assert(gr[i] != waiting[c] || cmdCount[c] == 0);  /* P5 */
              reply(i, REFUSED, 0)
#else
              gst[i] = REFUSE
#endif
           fi
        :: else -> skip
        fi
     fi;
     i++
  :: else -> break
  od
}

/* The refusals of the group, once the fold they were decided on is known to be the head. */
inline answerRefusals() {
  i = 0;
  do
  :: i < n ->
     if
     :: gst[i] == REFUSE -> reply(i, REFUSED, 0)
     :: else -> skip
     fi;
     i++
  :: else -> break
  od
}

/* 503 for every command of the group not yet answered: the client retries (same commandId). */
inline answerUnavailable() {
  i = 0;
  do
  :: i < n ->
     if
     :: gst[i] != DONE -> reply(i, UNAVAILABLE, 0)
     :: else -> skip
     fi;
     i++
  :: else -> break
  od
}

/* The store applies the put: the accepted commands as one item under sort key `key`. */
inline storeItem() {
  assert(ver + 1 == storeMax + 1);  /* P2: the item starts right after the last stored seq */
  itemLen[key] = k;
  itemFirst[key] = ver + 1;
  i = 0;
  do
  :: i < n ->
     if
     :: gst[i] == ACCEPT ->
        c = gc[i];
        assert(ver + gpos[i] <= MAXSEQ);      /* BOUND: a bound of the model, not a property */
        assert(cmdCount[c] == 0);             /* P4: never stored twice */
        assert(seqCount[ver + gpos[i]] == 0); /* P2: never two commits with one seq */
        cmdCount[c]++;
        seqCount[ver + gpos[i]]++;
        seqCmd[ver + gpos[i]] = c;
        itemCmd[key * G + gpos[i] - 1] = c
     :: gst[i] == REFUSE ->
        /* The put lands, so nothing followed the fold the group was decided on: a command
           refused on it is not stored. */
        assert(cmdCount[gc[i]] == 0)          /* P5 */
     :: else -> skip
     fi;
     i++
  :: else -> break
  od;
  if
  :: ver + k > storeMax -> storeMax = ver + k
  :: else -> skip
  fi
}

/* Every command of the group is answered: forget it, take the next one. */
inline endGroup() {
  attempt = 0; k = 0;
  i = 0;
  do
  :: i < G -> gc[i] = 0; gr[i] = 0; gst[i] = PENDING; gpos[i] = 0; i++
  :: else -> break
  od;
  n = 0
}

proctype Writer(byte w) {
  bool cached = false;      /* GameCache holds a fold of the game */
  bool behind = false;      /* a put collided: read the store before deciding again */
  byte ver;                 /* the fold's version: its last seq */
  byte known[NC + 1];       /* state.commandIds: commandId -> its seq in the fold (0: absent) */
  byte gc[G];               /* the group: commandIds in arrival order */
  byte gr[G];               /* ... their request numbers (to address the answers) */
  byte gst[G];              /* ... their states in this attempt */
  byte gpos[G];             /* ... ACCEPT / FOLLOW: position in the item (seq = ver + gpos) */
  byte n;                   /* the group's size (0: no group) */
  byte k;                   /* how many commits this attempt writes */
  byte attempt;
  bool finished;
  byte i, j, x, c, key, outcome;   /* scratch, zeroed after each step */

  /* Each round: step 1 (take a group if there is none, read the store if needed, decide),
     then step 2 (the put, or the read that confirms refusals). Everything else may happen
     between the two: that is the race the conditional put settles. */
end_idle:
  do
  :: atomic {
       (n > 0 || len(inbox[w]) > 0) ->
       if
       :: n == 0 ->
          /* GroupQueue (groupQueue.ts): the commands that queued while this writer's previous
             write was in flight, in arrival order, at most G (items well under 400 KB). */
          do
          :: n < G && len(inbox[w]) > 0 -> inbox[w]?gc[n], gr[n]; n++
          :: else -> break
          od;
          if
          :: n > 1 -> printf("writer %d: a group of %d\n", w, n)  /* reach: group of several */
          :: else -> skip
          fi
       :: else -> skip
       fi;
       attempt++;
       if
       :: attempt > MAXATT ->  /* reach: attempts exhausted */
          /* MAX_APPEND_ATTEMPTS reached: StoreUnavailable (503) for what is left. */
#ifndef BROKEN_SILENT_GIVE_UP
          answerUnavailable();
#endif
          finished = true
       :: else ->
          if
          :: !cached -> coldLoad()            /* cache.load(gameId): cold */
          :: cached && behind -> catchUp();    /* cache.load(gameId, true) */
             printf("writer %d: read the store, its fold is at seq %d\n", w, ver)
          :: else -> skip                      /* cache.peek(gameId): warm, maybe stale */
          fi;
          behind = false;
          decide();
          /* Nothing to write and nothing refused: every command is answered (200). */
          finished = (k == 0);
          i = 0;
          do
          :: i < n && gst[i] == REFUSE -> finished = false; break
          :: i < n && gst[i] != REFUSE -> i++
          :: else -> break
          od
       fi;
       if
       :: finished -> endGroup(); finished = false
       :: else -> skip
       fi;
       i = 0; j = 0; x = 0; c = 0
     };
     if
     :: n == 0 -> skip
     :: n > 0 && k == 0 ->
        /* Step 2 with only refusals: GroupCommit.appendGroup's confirm(), a read (Query sk > ver, Limit 1) showing that
           the fold is the head before they are answered (DESIGN_REFUSE_AT_ONCE: not so). */
        atomic {
          x = ver + 1;
          finished = true;
          do
          :: x > MAXSEQ -> break
          :: x <= MAXSEQ && itemLen[x] > 0 && itemFirst[x] == ver + 1 -> finished = false; break
          :: else -> x++
          od;
          if
          :: finished ->  /* reach: refusal confirmed by a read */
             i = 0;
             do
             :: i < n ->
                if
                :: gst[i] == REFUSE -> assert(cmdCount[gc[i]] == 0)  /* P5 */
                :: else -> skip
                fi;
                i++
             :: else -> break
             od;
             answerRefusals();
             endGroup()
          :: else ->
             /* The head moved on: read it, decide again. */
             behind = true  /* reach: refusal not confirmed */
          fi;
          finished = false;
          i = 0; j = 0; x = 0; c = 0
        }
     :: n > 0 && k > 0 ->
        /* Step 2, the put: the group as one item (EventStore.appendGroup), PutItem with
           attribute_not_exists(sk). */
        atomic {
#ifdef BROKEN_KEY_LAST
          key = ver + k;
#else
          key = ver + 1;
#endif
          printf("writer %d: puts seqs %d..%d as the item at key %d\n", w, ver + 1, ver + k, key);
          if
          :: cleanFails > 0 -> cleanFails--; outcome = FAILED;
             printf("writer %d: the put failed, nothing stored\n", w)  /* reach: clean failure */
#ifdef BROKEN_NO_CONDITION
          :: lost > 0 -> lost--; outcome = FAILED;
             printf("writer %d: stored, its answer lost\n", w); storeItem()
          :: lost > 0 -> lost--; outcome = COLLIDE;
             printf("writer %d: stored, the SDK's retry collided with it\n", w); storeItem()
          :: true -> outcome = OK;
             printf("writer %d: stored (no condition)\n", w); storeItem()
#else
          :: lost > 0 && itemLen[key] == 0 -> lost--; outcome = FAILED;
             printf("writer %d: stored, its answer lost\n", w); storeItem()  /* reach: ambiguous */
          :: lost > 0 && itemLen[key] == 0 -> lost--; outcome = COLLIDE;
             printf("writer %d: stored, the SDK's retry collided with it\n", w); storeItem()  /* reach: own item */
          :: itemLen[key] == 0 -> outcome = OK;
             printf("writer %d: stored\n", w); storeItem()
          :: itemLen[key] != 0 -> outcome = COLLIDE;
             printf("writer %d: collided (ConditionalCheckFailed)\n", w)  /* reach: collision */
#endif
          fi;
          if
          :: outcome == OK ->
             /* Stored: 201 for each accepted command, 200 with the same commit for a resend
                of one in the group, the refusals (decided on the head), and the cache moves
                on (cache.offer). */
             i = 0;
             do
             :: i < n ->
                if
                :: gst[i] == ACCEPT -> known[gc[i]] = ver + gpos[i]; reply(i, NEW, ver + gpos[i])
                :: gst[i] == FOLLOW -> reply(i, STORED, ver + gpos[i])
                :: else -> skip
                fi;
                i++
             :: else -> break
             od;
             answerRefusals();
             ver = ver + k;
             endGroup()
          :: outcome == FAILED ->
#ifdef BROKEN_ACK_AFTER_FAILURE
             /* Broken: "it probably landed": acknowledge the group. */
             i = 0;
             do
             :: i < n ->
                if
                :: gst[i] == ACCEPT || gst[i] == FOLLOW -> reply(i, NEW, ver + gpos[i])
                :: else -> skip
                fi;
                i++
             :: else -> break
             od;
#endif
#ifdef BROKEN_ADVANCE_AFTER_FAILURE
             /* Broken: the cache moves on as if the group were stored. */
             i = 0;
             do
             :: i < n ->
                if
                :: gst[i] == ACCEPT -> known[gc[i]] = ver + gpos[i]
                :: else -> skip
                fi;
                i++
             :: else -> break
             od;
             ver = ver + k;
#else
             /* GroupCommit.appendGroup's catch: cache.forget(gameId); the next group loads again. */
             cached = false;
             ver = 0;
             j = 1;
             do
             :: j <= NC -> known[j] = 0; j++
             :: else -> break
             od;
#endif
             /* None of the group is acknowledged: 503, retry with the same commandId. */
             answerUnavailable();
             endGroup()
          :: outcome == COLLIDE ->
             /* Another writer (or this one's landed, ambiguous put) holds the key: read the
                store (cache.load(gameId, true)) and decide the group again. */
             behind = true;
             k = 0
          fi;
          i = 0; j = 0; x = 0; c = 0; key = 0; outcome = 0
        }
     fi
  od
}

proctype Client(byte c) {
  /* POST /games/{id}/commands with commandId c, to either writer. By symmetry, the clients'
     first requests go out in the order of their commandIds (any other order is the same run
     with the ids renamed) and the first request of all goes to writer 0 (the writers are
     alike at the start). */
  atomic {
    firstSent == c - 1 ->
    firstSent++;
    waiting[c] = 1;
    if
    :: inbox[0]!c, 1; printf("client %d: request 1 to writer 0\n", c)
    :: c > 1 -> inbox[1]!c, 1; printf("client %d: request 1 to writer 1\n", c)
    fi
  };
  /* An acknowledgement or a refusal ends the command (reply); here the client waits. */
end_wait:
  do
  :: atomic {
       answer[c]?UNAVAILABLE ->
       if
       :: waiting[c] >= MAXSEND -> waiting[c] = 0; clientsDone++  /* reach: client gives up */
       :: waiting[c] < MAXSEND ->  /* reach: retry after a 503 */
          /* 503: retry with the same commandId, at either writer. */
          waiting[c]++;
          if
          :: inbox[0]!c, waiting[c]; printf("client %d: 503, request %d to writer 0\n", c, waiting[c])
          :: inbox[1]!c, waiting[c]; printf("client %d: 503, request %d to writer 1\n", c, waiting[c])
          fi
       fi
     }
  :: atomic {
       /* No answer yet: time out and resend with the same commandId, at either writer; the
          first request stays queued or in flight, and its answer is not read. */
       waiting[c] != 0 && waiting[c] < MAXSEND && empty(answer[c]) && timeouts > 0 ->  /* reach: time-out and resend */
       timeouts--;
       waiting[c]++;
       if
       :: inbox[0]!c, waiting[c]; printf("client %d: time-out, request %d to writer 0\n", c, waiting[c])
       :: inbox[1]!c, waiting[c]; printf("client %d: time-out, request %d to writer 1\n", c, waiting[c])
       fi
     }
  od
}

/* When nothing can move any more: the end-state properties. */
active proctype Final() {
  byte s, c, x;
  timeout;
  assert(clientsDone == NC);  /* P6: every request was answered */
  /* The items in seq order, whatever their keys: each starts right after the previous one. */
  s = 1;
  do
  :: s <= storeMax ->
     x = 1;
     do
     :: x <= MAXSEQ && !(itemLen[x] > 0 && itemFirst[x] == s) -> x++
     :: else -> break
     od;
     assert(x <= MAXSEQ);  /* P2: an item starts where the previous one ended */
     s = s + itemLen[x]
  :: else -> break
  od;
  assert(s == storeMax + 1);  /* P2 */
  s = 1;
  do
  :: s <= storeMax -> assert(seqCount[s] == 1); s++  /* P2: 1..max, each seq once */
  :: else -> break
  od;
  c = 1;
  do
  :: c <= NC ->
     assert(cmdCount[c] <= 1);  /* P4 */
     assert(!acked[c] || (cmdCount[c] == 1 && seqCmd[ackSeq[c]] == c));  /* P1 */
     c++
  :: else -> break
  od
}

init {
  byte c = 1;
  atomic {
    run Writer(0);
    run Writer(1);
    do
    :: c <= NC -> run Client(c); c++
    :: else -> break
    od;
    c = 0
  }
}
