"""The grouping's tunable settings: every threshold, penalty and limit, each with why.

Other modules read them as ``settings.NAME`` (never ``from ... import NAME``), so that a test
or an experiment can change one with ``monkeypatch.setattr(settings, "NAME", value)`` and the
change reaches every step.
"""

from __future__ import annotations

from typing import Any

FACE_DOWN = "x"

#: Names accepted for a face-down tile (the detector's class is ``back``).
FACE_DOWN_NAMES = frozenset({"x", "back"})

#: Whether the table plays with a red five in each suit (the usual rules): a closed kan of
#: fives then holds the red one, face down when none shows.
RED_FIVES = True

#: Confidence under which a tile is reported as uncertain, with its candidates scored.
LOW_CONFIDENCE = 0.6

#: Boxes overlapping more than this are one tile seen twice.
DUPLICATE_IOU = 0.6

#: A tile whose along/across ratio exceeds the upright tiles' by this factor is sideways
#: (upright 0.75 vs sideways 1.33 gives 1.78; the threshold is its geometric middle).
SIDEWAYS_FACTOR = 1.33

#: When a row's ratios split clearly in two, the threshold is between the clusters,
#: within these bounds (thick tile bodies in oblique photos narrow the contrast).
SIDEWAYS_LIMITS = (1.2, 1.5)

#: A sideways tile's length along the row, in upright widths (tiles are about 26 x 35 mm).
SIDEWAYS_LENGTH = 1.34

#: The face's across extent changes by more than this factor, at a gap, where standing
#: tiles meet flat ones.
STANDING_STEP = 1.25

#: A sideways tile's depth in the photo, in upright depths (0.75 for the face; the tile's
#: side seen in oblique photos adds to both).
SIDEWAYS_DEPTH = 0.8

#: Judgements closer than this (log units between the two fits) are reported as doubtful.
SIDEWAYS_DOUBT_MARGIN = 0.12

#: A sideways tile's centre lies at least 1.17 pitches from its neighbours' (touching); a
#: tile closer than this to both neighbours is upright whatever its box's shape.
SIDEWAYS_MIN_STEP = 1.07

#: A row's end tile judged sideways within this margin (log units) is a doubt, re-read
#: upright (:func:`row_geometry._doubtful_ends`: upright end tiles judged sideways show
#: margins up to 0.42 in nine cases of ten; 0: off).
END_DOUBT_MARGIN = 0.4

#: ... and in a row near 45 degrees, its end tiles judged either way within this margin of
#: the spacing judgement (:func:`row_geometry._doubtful_ends`; 0: off).
END_DOUBT_DIAGONAL = 0.6

#: ... and the tile next to each end, judged sideways within that margin: a winning tile's
#: gap is one wide step at the row's end, which the spacing can also explain by the tile
#: before it lying sideways (study seed 1014, scene 308: a closed hand read as a pon whose
#: last tile is the winning tile; with DIAGONAL_DOUBTS_BOTH only). False: off.
END_DOUBT_DIAGONAL_NEXT = True

#: A row near 45 degrees is judged again for each reading direction (the player's side
#: prices the sideways tiles); it carries the doubtful sideways judgements of both, not only
#: the best direction's: the other direction's reading may need exactly that tile turned
#: (study seeds 1013/136, 1014/268: melds read as concealed tiles the other way round).
#: With END_DOUBT_DIAGONAL_NEXT, study seeds 1001-1016 true boxes +3 -0, damaged +9 -2;
#: check seeds 770013-16 true +0 -0, damaged +1 -1; nothing new silent. False: the best
#: direction's only.
DIAGONAL_DOUBTS_BOTH = True

#: A hand read with no dora indicator beside it is warned (``no_dora_indicator``): a riichi
#: table always shows one, so none read is a photo that leaves it out or a tile not found
#: (the reporting sets' only silent wrong hands, on damaged boxes and on the photo path,
#: were a lone dora indicator with no box); False: off.
WARN_NO_DORA = True

#: A chi read with its sideways tile not first is also read with that tile and the chi's
#: first one turned together (:func:`doubts._called_tile_swaps`; False: off).
CHI_FIRST_SWAP = True

#: ... and so is the best reading reached by turning doubtful judgements, on top of those
#: turns (:func:`doubts._chi_swap_after_turns`; False: off).
CHI_SWAP_AFTER_TURNS = True

#: A tile judged sideways whose centre lies closer than this many local pitches to a
#: neighbour (not stacked: STACK_NEAR's step or more) is a doubt whatever its box's shape
#: (:func:`row_geometry._crowded_sideways`): touching, a sideways tile's centre lies 1.17
#: pitches from its neighbours'; on the tuning rows' truth, true sideways tiles show a
#: nearest step under 1.03 in one case of twenty, upright tiles judged sideways in one of
#: four under 1.02 (the veto, SIDEWAYS_MIN_STEP, needs both neighbours close; 0: off).
DOUBT_NEAR_STEP = 1.07

#: The tiles of a standing/flat section of one or two (too few to judge on their own) that
#: the whole row judged as one takes sideways are doubts (a cut beside a meld's called tile
#: hid it: :func:`row_geometry._small_section_doubts`; False: off).
SMALL_SECTION_DOUBT = True

#: Rows near 45 degrees (:func:`_spacing_judgement`): the spread of a touching step around
#: its prediction (relative), the most a gap costs, the cost of a sideways tile, the weight
#: of the box shapes' margins, and the scale from costs to the margin in log units.
SP_NOISE = 0.09

SP_GAP = 2.0

SP_SIDEWAYS = 1.0

SP_SHAPE = 1.0

SP_MARGIN = 0.1

#: A sideways tile's centre nearer the player than its neighbours' (pitches), the spread of
#: that offset for upright and for sideways tiles, and the most it counts either way.
EDGE_SIDEWAYS = 0.14

EDGE_SPREAD = (0.025, 0.035)

EDGE_CAP = 7.0

#: A gap wider than this share of an upright tile's width separates tiles (players leave
#: a quarter of a tile or more before the winning tile; touching tiles show ~0.03).
GAP = 0.15

#: Past the upright pairs that measure a row's pitch (gaps are in that pitch), it follows
#: the tiles' size trend in their section, at most this factor from the last pitch measured
#: (0: held at the range measured). Melds at a row's near end are larger than the concealed
#: tiles: a held pitch opened gaps inside them. Study seeds 1001-1016 +7 -2 (a factor of 2.5:
#: +7 -4; of 1.3: +4 -2), check seeds 770013-16 +1 -0, nothing new silent. Tried and not
#: kept: the penalty of a gap inside a meld rising from 0 at GAP to full 0.15 past it (alone
#: +5 -1, check +1 -1; with this factor +9 -4, no more hands net).
UNITS_BY_SIZE = 1.6

#: A gap between two melds wider than this share of a tile may hold a missing tile.
MELD_HOLE = 0.9

#: Gaps in this band are judged, but reported as doubtful.
GAP_DOUBT = (0.09, 0.22)

#: The number of tiles a hand row may hold (13-14 tiles plus up to four kans).
HAND_SIZE = (13, 18)

#: Indicator bands: at most this many face-up tiles; the first this close to the hand's
#: line, the second this close to the first (in upright tile heights).
MAX_INDICATORS = 5

INDICATOR_REACH = 4.0

#: ... or, for face-up tiles on a dead wall (nothing else mixes face-up and face-down
#: tiles), this close.
DEAD_WALL_REACH = 6.0

#: With no indicators within reach, a short run of face-up tiles this close is named as
#: possible indicators.
FAR_INDICATOR_REACH = 5.5

#: ... and when that short run (face-up tiles alone) holds every face-up tile above the hand
#: and no wall stands between it and the hand (face-up tiles beyond a player's wall are
#: discards), it is read as the dora, named (study seed 770011: two dora 4.4 hand depths
#: above a standing hand, nothing else face up, read as none). False: never read.
FAR_LONE_RUN = True

#: ... or when that short run (one to four face-up tiles alone, no wall between it and the
#: hand) is the nearest face-up run above the hand and every other lies more than this many
#: depths beyond it (an ura row on it aside): laid apart from the rest, as indicators are;
#: named. Five are left out: a river's first row, more likely than four kans. Study seeds
#: 1001-1016 (true boxes) +3 -0 (1002/496: two dora 4.0 depths above a standing hand, the
#: river 2.7 further), check seeds 770013-16 +2 -0; with five allowed, study 1005/423 was
#: lost (a river's first row of five read as dora). Infinite: only the lone run above.
FAR_NEAREST_CLEAR = 1.5

#: ... with up to this many runs level with it and beside it (dora and their ura laid side by
#: side: the left run is the dora), the rest beyond all of them. Study seeds +1 -0 (1007/472:
#: three dora and three ura side by side 4.3 depths above the hand, read as none); check seeds
#: the same. 0: that run alone.
FAR_NEAREST_BESIDE = 1

URA_REACH = 2.0

#: Distances above the hand are measured in the hand tiles' depth, or in this share of the
#: median depth of the face-up tiles beyond it when larger (at least this many of them).
FLAT_DEPTH_SHARE = 0.8

FLAT_DEPTH_TILES = 3

#: A row of at least this many face-down tiles, over a run's stretch and more than this
#: many depths nearer the hand, is a wall between the hand and that run.
WALL_TILES = 3

WALL_RISE = 0.3

#: A run above the hand with more face-up tiles than two river rows is rows run together.
MERGED_ROWS = 12

#: Face-up tiles this near the chosen indicators (tile heights across, tile widths along
#: between the runs' end centres) make the indicator reading doubtful: a discard taken for an
#: indicator, or an indicator left out, are then told apart by nothing in the boxes.
STRAY_NEAR = 1.7

#: Ura above the dora start where the dora start, within this many hand tile widths: the
#: rows' along coordinates shear apart with height in oblique views (lines up the table
#: converge on a vanishing point), by up to ~0.9 tile seen from the side.
URA_ALIGN = 1.1

URA_ALIGN_WALL = 1.6

#: ... or further above, when within this many of the two rows' own depth (centre to centre)
#: and starting where the dora start in their own tile size: rows nearer the camera than the
#: hand (seen from across the table) look bigger than its tiles, and hand depths overstate
#: how far apart they lie. Ura lie one row on the dora (a row step is about one own depth;
#: tuning seeds: ura up to 1.3 off a dead wall, 1.86 on one). 0: off.
URA_OWN_RISE = 1.4

#: ... on a dead wall (face-down tiles around the dora), where the dora stand a tier higher
#: than the ura on the table: the own-depth rise reaches 1.86 there (tuning seeds, see
#: URA_OWN_RISE). Study seeds 770022-770023: three single ura 1.42-1.73 own depths off a
#: dead wall, seen from across the table, were left out. URA_OWN_RISE: as off a wall.
URA_OWN_RISE_WALL = 1.9

#: Runs level with the chosen dora further along (the dora are taken as the left one) are
#: named ``possible_indicators``: the boxes do not tell which run is the dora. False: off.
WARN_LEVEL_RUNS = True

#: The learned indicator scorer (:mod:`vision.grouping.indicator_scorer`) overrides the rules'
#: dora (or their reading of none) when its choice scores this much higher (log odds), named
#: ``possible_indicators``; when the rules' choice leads the next option by less than
#: SCORER_DOUBT, both are named. 0: the scorer is not consulted. Tuning seeds (true boxes):
#: 2.0 reads 13 more hands of 770005-8 and loses none; a lead of 1.0 turned more dora
#: readings right but also some wrong (2 on 770005-8; see benchmarks/RESULTS.md). Study seeds
#: 1001-1020 at 1.0: 14 hands right and 5 wrong that 2.0 read the other way, but the check
#: seeds lost one, so 2.0 stays.
SCORER_OVERRIDE = 2.0

SCORER_DOUBT = 0.5

#: The learned ura scorer (:func:`vision.grouping.indicator_scorer.ura_scores`) overrides the
#: rules' ura (or their reading of none) when its choice scores this much higher (log odds),
#: named ``possible_ura``; a lead of the rules' choice under URA_SCORER_DOUBT names both.
#: 0: not consulted. Its candidates: face-up runs of at most five tiles from URA_POOL_BELOW
#: hand depths under the dora to URA_POOL_ABOVE over them, reaching within URA_POOL_ALONG hand
#: tile widths of the dora along the hand.
URA_SCORER_OVERRIDE = 1.0
URA_SCORER_DOUBT = 0.5
URA_POOL_BELOW = 0.6
URA_POOL_ABOVE = 4.0
URA_POOL_ALONG = 4.0

#: A run not read as dora or ura that the scorer rates this far above "no dora" (its score;
#: SCORER_OVERRIDE's scale) is named with the dora as ``possible_indicators`` (study seed
#: 1005, scene 95: a lone discard half hidden just above the hand read as the dora, the true
#: one, 4.27, a row further, with no warning; in 4,271 study scenes of seeds 1001-1010 this
#: names 5 right hands that had no warning). Infinite: off.
SCORER_RIVAL = 2.0

#: Other indicator readings offered as alternatives (never taken): each option of the dora
#: scorer (a run above the hand, or none) and, with the dora taken, of the ura scorer, that
#: their softmax gives at least this chance, the likeliest INDICATOR_ALTERNATIVES of each.
#: The exact-hand figure does not move; what moves is how often the true hand is one tap
#: away on the page (``offered`` in benchmarks/bench_grouping.py): study seeds 1001-1016
#: 7500 -> 7549 of 7619, check 770013-16 1892 -> 1901 of 1918, while right hands carrying
#: an alternative grow from 114 to 414 of 7493 (benchmarks/RESULTS.md). 0: none offered.
INDICATOR_ALTERNATIVE = 0.05
INDICATOR_ALTERNATIVES = 2

#: Five tiles read as dora (the most a table shows: four kans called) are named
#: ``possible_indicators`` whatever the scorer says (study seed 1009, scene 269: a river's
#: first row of five read as five dora with no warning; the scorer rated it 3.7, and with the
#: boxes jittered 4-7, inside the range of true rows of five dora, so no score threshold
#: keeps it named). Real tables almost never show five; the generator lays them out in 2.4%
#: of scenes, so on generated scenes this names about 1% of right hands. False: off.
FIVE_DORA_NAMED = True

#: Ura closer above the dora than 0.3 depths (low views) must start where they start.
URA_LOW_RISE = 0.12

#: Four indicators in one run whose middle step is this much wider than the others are two
#: dora and two ura (touching steps vary by ~10% between neighbours; the ura are laid ~0.4
#: tile or more apart).
URA_SPLIT_STEP = 1.2

#: ... also with face-down tiles in the run (seen from low down, a wall behind the
#: indicators runs into them; tuning seeds: 2 such runs). False: only four tiles alone.
URA_SPLIT_WALL = True

#: ... and six, eight or ten face-up tiles alone in one run, the middle step the widest by
#: URA_SPLIT_STEP: three to five dora and as many ura in one line (seen from low down, or
#: laid close), otherwise read as a river's row and no dora at all (tuning seed 770009: two
#: hands of three dora and three ura). False: such runs are rivers.
URA_SPLIT_LONG = True

#: Two face-up tiles in one run whose centre step is this many of their boxes' mean extent
#: along it are one dora and one ura laid beside it, named ``ura_beside_dora`` (training
#: seeds 550001-550016: two dora side by side at most 1.046 of 1,642; one dora and one ura
#: run together 1.08 and up, 10 runs). 99: off.
URA_PAIR_GAP = 1.06

#: Tiles above the hand, level with each other, also link into one run when their centres
#: step less than this share of their boxes' mean extent along the hand (boxes overlapping:
#: touching tiles) however far apart they lie in hand tile widths: seen from the side and
#: low down, touching dora step 1.3-1.6 of the hand's widths (study 1015/044: three dora
#: read as one, an ura beside it and a lost tile). Study seeds +6 -0, check seeds +4 -1
#: (true boxes); only 0.6 was tried. 0: off.
EXTENT_LINK = 0.6

#: Two dora read in one run (ura allowed, none read) whose centre step exceeds the median
#: step of the other face-up runs above the hand by this ratio are named ``possible_ura``
#: (warning only: tuning seeds 770009 and 770011, a dora and its ura linked into one run,
#: seen from the side, at 1.15 and 1.26 of the rivers' steps, were read as two dora with no
#: warning). Infinite: off.
URA_PAIR_SPREAD = 1.1

#: ... and two dora read in one run with no other run of face-up tiles above the hand to
#: compare with are named ``possible_ura`` when their centre step, in their own size, is
#: over this (study seed 1007, scene 212: a dora and its ura, touching corner to corner 20
#: degrees off the image axes, 1.39, read as two dora with no warning; two dora alone side by
#: side in 2,861 study scenes of seeds 1001-1008: median 1.0, 90% under 1.33; the box
#: extents' gap measure, even corrected for the rotation, does not tell them apart). Not
#: lower: a clean photo of a hand and two touching dora (step 1.0) would always be doubted.
#: Infinite: off.
URA_PAIR_ALONE_STEP = 1.3

#: Ura indicators are turned over only for a riichi winner, whose hand is closed (closed
#: kans aside): beside a hand with called melds, no run is read as ura.
URA_NEEDS_CLOSED_HAND = True

#: Ura beside the dora: centre distance (tile widths) from the last dora to the first ura
#: below which the two runs could be split differently.
URA_BESIDE_CLEAR = 1.6

#: Ura beside the dora are also found level (0.3) and close (3 tiles) in the two runs' own
#: depth and size, not only the hand's: seen from the side, the run nearer the camera is
#: larger than the hand's tiles (tuning seed 770009: an ura 3.4 hand widths along and 0.34
#: hand depths above its dora, 2.7 and 0.25 in their own). False: the hand's only.
URA_BESIDE_OWN = True

#: A run of as many face-up tiles as the dora, starting within 3 tiles past their end but
#: off their level by 0.3 to this many depths, is named ``possible_ura`` (not read: tuning
#: seed 770009, three ura beside three dora 0.5 above them seen from the side, left out with
#: no warning). 0: off.
URA_NEAR_RISE = 0.6

#: Runs over the hand's stretch (and 3 tiles beyond its ends) are followed this many tiles
#: further along (a run of dora and ura side by side holds up to 10 tiles).
RUN_BEYOND = 10.0

#: Tiles of one run lie at least this far apart along it (centre step in their own size).
RUN_MIN_STEP = 0.5

#: Linked tiles that are not one line (two side by side across the table: rows beyond the
#: hand seen from low down, chained into one block) are split into lines, each tile keeping
#: its nearest neighbour across the table on either side. False: such blocks stay one run.
#: Study seeds 1001-1010 (true boxes), with RUN_LINES_DEAD_WALL, RUN_LINES_WALLED and
#: BLOCK_DORA_DOUBTED: 8 more hands read right, none lost, no silent one (a dead wall's dora
#: hidden in a block of 20-90 tiles were no candidate; 12 of the 34 dora failures of seeds
#: 1001-1005 were such). Every line a run of its own lost hands (study 1001: 3, a river's
#: rows read as ura); without RUN_LINES_WALLED study 1005 and the check seeds (770013-16)
#: each lost one (discards by a wall's end read as dora; silent without BLOCK_DORA_DOUBTED),
#: with it the check seeds gain 2 (1869 against 1867). With WALL_ENDS_APART too (d896d06):
#: study 1001-1020 +22 -0 (9242 against 9220 of 9520), check 1869.
RUN_LINES = True

#: ... nearness counts this much of the step along the hand (hand tile widths) beside the
#: step across it (run heights): of two neighbours level with a tile, the closer one.
RUN_LINE_ALONG = 0.02

#: ... and keeps no neighbour further along than this (centre step in their own size):
#: the line's tiles touch (a sideways one steps about 1.2).
RUN_LINE_STEP = 2.0

#: ... and only a dead wall's line (face-down tiles, up to five face-up ones) leaves the
#: block; the rest stays one run. False: every line is a run of its own.
RUN_LINES_DEAD_WALL = True

#: ... whose ends are face down (the indicators lie between the dead wall's stacks): False,
#: any dead wall's line.
RUN_LINES_WALLED = True

#: ... or holds all five indicators after two face-down stacks, running to the line's other
#: end (:func:`~vision.grouping.indicators._five_to_the_end`): a dead wall's seven stacks
#: from the third to the last. Study seeds 1001-1010 (true boxes) +1 -0 (4649 of 4753), no
#: silent one; check seeds 770013-16 the same (1873 of 1918).
RUN_LINES_FIVE_AT_END = True

#: ... or after two face-down stacks that end the line, with face-up tiles lying on past the
#: wall's seventh stack (discards beside it, seen from low down on its line). Study seeds
#: 1001-1016 +1 -0 (7438 -> 7439 of 7619, with ..._AT_END above), no silent one; check seeds
#: 770013-16 the same.
RUN_LINES_FIVE_PAST_END = True

#: ... or, within a line whose ends are not both face down, the stretch from its first
#: face-down tile to its last holding up to five face-up tiles (a dead wall seen from low down
#: on one line with discards lying past its end stacks): that stretch leaves the block, the
#: tiles past it stay. False: such a line stays in the block. Study seeds 1001-1016 (true
#: boxes) +4 -0 with the two rules below (7446 -> 7452 of 7619 for the three), no silent one;
#: check seeds 770013-16 the same (1875 of 1918).
RUN_LINES_BETWEEN_STACKS = True

#: A group linked on one line (no two tiles side by side across the table) holding a dead
#: wall's two stacks and five indicators with discards past them: the wall leaves it (as in a
#: line split out of a block). False: the group is one run, its face-up tiles discards.
#: Study seeds +1 -0 (1016/192), check seeds the same.
RUN_ONE_LINE_FIVE = True

#: A group linked on one line whose tiles alternate between two rows of as many face-up tiles
#: (two to five), the rows' heights apart by more than STAGGER_GAP times either row's spread
#: and at least STAGGER_MIN flat tile depths: dora and their ura just beyond, seen from low
#: down and from one side, each row its own run. False: one run of up to ten tiles. Study
#: seeds +1 -0 (1002/129), check seeds the same; the two thresholds were set from that scene,
#: not swept.
RUN_STAGGERED_ROWS = True
STAGGER_GAP = 2.0
STAGGER_MIN = 0.04

#: Dora read on such a line are named ``possible_indicators``: from so low, discards lying by
#: a wall make the same line. False: no warning.
BLOCK_DORA_DOUBTED = True

#: Face-up tiles in a dead wall's run (at most five face-up tiles in all) beyond its end
#: stacks, when others lie between its stacks, are a run of their own (discards lying on
#: past the wall's end, not indicators). False: one run. Study 1001-1020: 7 more hands, none
#: lost; check 770013-16 unchanged. Without the limit of five it lost one on study seed
#: 770024 at 960 px (a river row with two wall tiles in it: three of its discards between
#: them read as a dead wall's dora), and one on the check seeds.
WALL_ENDS_APART = True

#: A line of face-up tiles joins the next one it carries on (:func:`_continued_lines`): the
#: next tile's centre one of its steps on along its own direction in the photo, between
#: these shares of that step (scaled by the tiles' size), at most RUN_CONTINUE_ACROSS of a
#: tile off the line, five face-up tiles at most. Seen close and from one side, perspective
#: turns a row of indicators away from the hand's direction and its nearer tiles climb past
#: the links' reach (study 1004/369: five dora read as four). Study seeds 1001-1016 (true
#: boxes) +4 -0 (damaged +8 -3), check seeds 770013-16 +0 -0 (damaged +3 -0); no new
#: silent hand. Tried: no limit of five (six study scenes reading a river's row as dora,
#: checked one by one, read the same). False: off.
RUN_CONTINUE = True
RUN_CONTINUE_STEP = (0.8, 1.3)
RUN_CONTINUE_ACROSS = 0.25
RUN_CONTINUE_MAX = 5

#: Runs closer above or below each other than this (depths) over the same stretch are
#: one block of tiles (a river seen from its side), not an ura row.
COLUMN_RISE = 0.4

#: ... only when the other run covers the candidate's middle (within half a tile): a river
#: row ending just past the start of the ura on the dora is no column with them (tuning seed
#: 770009: three ura on three dora left out, a river row overlapping them by 0.1 tile).
#: False: any overlap within half a tile.
COLUMN_COVER = True

#: A river's short last row level with the dora and beside them is not read as ura (ura
#: under a river lie on the dora, not beside them; tuning seed 770009: a lone discard at
#: the end of a side player's river read as the ura of a lone dora). False: read as ura.
URA_RIVER_END_BESIDE = True

#: A river's rows start within this many tiles of each other along the hand, and lie at one
#: spacing: rows of discards touch, so the step to a short last row is the step between the
#: rows above it, up to perspective (adjacent rows' scales differ by far less than 1.4) and
#: the heights' noise (depths); a short row further below is not one of its rows.
RIVER_ALIGN = 0.5

RIVER_PITCH_SPREAD = 1.4

RIVER_PITCH_NOISE = 0.05

#: A short run under two rows as long as each other (longer than it), all three at one
#: spacing and starting together, is a river's last row: the river's rows show only so many
#: tiles (the rest hidden or cut off), and a run under two equal rows cannot be dora under as
#: many ura. Rows growing away from the hand are no river's (only its last row is short).
#: Study seeds 1001-1016 +2 -0 (1006/173, rows of five, and 1016/426, rows of three: a lone
#: discard read as the dora), damaged +1 -0; check seeds and the reporting sets unchanged.
#: False: the row above must itself end a river (a longer row over it).
RIVER_EQUAL_ROWS = True

#: A river's rows touch: its short last row lies about one of its tiles' own depth below the
#: row above it (centre to centre, across the table; the box depth, which also shows the
#: tile's side, is at least that step). A short run further below the row above than this
#: many of its own depths lies apart from it, as indicators do: not the river's last row.
#: Tuning seeds: river ends 0.6-1.3, indicators taken for river ends 1.9-5.4. Infinite: off.
RIVER_END_RISE = 1.5

#: With a river's row (six or more face-up tiles) the nearest run above the hand, a short run
#: of face-up tiles beside it (clear of its stretch), within this many hand depths of its
#: height and with nothing face-up nearer the hand, is read as the dora, named
#: ``possible_indicators`` (tuning seed 770010: five dora laid left of the player's own
#: river, read as none). 0: off (no dora beyond a river's row).
RIVER_ASIDE_RISE = 1.0

#: A run level with a river's short last row and this close along (tile widths between
#: their ends' centres) is more of that row.
RIVER_ROW_GAP = 1.6

#: A dora indicator whose box lies within this many pixels of the photo's edge is cut by the
#: frame: its row may go on beyond the photo (a river's row, of which only the end shows), so
#: it is not read as an indicator (``possible_indicators`` names it); ura likewise
#: (``possible_ura``; tuning seeds: no true ura touches the frame). Negative: never.
FRAME_MARGIN = 1.0

#: Face-up runs over one stretch whose rows lie less than this share of their tiles' own
#: depth apart across the table form one block of discards laid messily: none of them is a
#: dora indicator (indicators lie apart; touching rows of a river lie a whole row step
#: apart, ura on their dora too, and those are exempt: as many tiles, starting together).
#: 0: off.
CROWD_RISE = 0.55

#: ... except face-up tiles on a dead wall (face-down tiles in their run): a river row just
#: beyond the dead wall can lie less than half a depth from its indicators
#: across the table, but a block of discards holds no face-down tiles (study seed 770009:
#: three dora on a dead wall, a river's short row 0.5 of a depth beyond, read as none).
#: False: such indicators are crowded out too.
CROWD_SPARES_DEAD_WALL = True

#: Penalty of a standing/flat split other than the one the boxes suggest, and how many
#: such splits (gaps) are tried.
P_SPLIT = 0.3

MAX_SPLITS_TRIED = 5

#: ... and more where the tiles' depth does not change there.
P_SPLIT_UNSEEN = 1.0

#: Neighbours in the row closer along than this (pitches) and further apart across than
#: this (tile sizes) are a tile and the one stacked on it.
STACK_STEP = 0.9

STACK_ACROSS = 0.45

#: ... or closer along than this (pitches) and further apart across than this (tile
#: sizes): touching tiles lie a whole step apart, so a centre within two thirds of a step
#: lies on the other tile, not beside it; seen from low down, an added tile's offset
#: across shrinks with the view to a quarter of a tile (0: off).
STACK_NEAR = (0.65, 0.25)

#: These steps along (and the half-step test of two tiles on one place) are measured against
#: the touching steps within this many places either side, never more than the row's median
#: step (standing tiles' boxes are larger than flat ones' at the same pitch; 0: the row's).
STACK_LOCAL = 3

#: ... and the row's median step they are capped at counts only the steps between tiles whose
#: boxes are shaped like the pair's (across the row over along it) within this factor: a
#: standing hand's tiles and its flat melds (0: every step of the row). Study seeds
#: 1001-1010 (true boxes) +2 -0 (added kans beside standing hands, read as open kans), 1011-16
#: the same, no silent one; check seeds 770013-16 1873 -> 1876 of 1918.
STACK_CAP_LIKE = 1.6

#: A row short of tiles looks this many pitches beyond its ends for more on its line.
FAR_REACH = 5.0

#: ... and, failing that, the nearest face-up tile up to this many pitches beyond each end
#: and this many tile sizes off its line (the faces of standing and flat tiles lie on two
#: lines where they meet: a standing hand's flat winning tile; 0: off).
STEP_REACH = (2.0, 0.75)

#: A row read with tiles too many (no hand) is also read without the tile furthest off its
#: line when it lies more than this share of a tile's size off it (an added kan's tile taken
#: into the row, a third of a tile or more beyond the called tile), kept only if it then
#: reads better, always named (``dropped_tile``; 0: off).
DROP_OFF_LINE = 0.25

#: Tiles are left out of the hand row in up to this many rounds: after a round that left one
#: out, the row read without it is searched again (1: a single round).
DROP_ROUNDS = 2

#: The tiles that may not belong to the hand are also looked for in the row's reading as
#: judged, when a turned judgement settled it otherwise: an added kan's tile taken into the
#: row and crowded against the called tile, turned upright, reads a daiminkan before the
#: row is read without it; the reading without it wins only when it is cheaper than the
#: turned one with its turns' cost (False: off).
DROP_AS_JUDGED = True

#: Rows read as the possible hand (the most hand-like by size and tile count).
HAND_ROW_TRIES = 4

#: Penalty per unit of log size for a row further away (smaller) than the largest one.
P_FAR = 2.0

# Penalties of a parse: what a layout leaves unexplained (documented in the README).
P_COUNT = 4.0

P_SIDEWAYS_CONCEALED = 3.0

P_FACE_DOWN_CONCEALED = 3.0

P_GAP_IN_MELD = 1.5

P_GAP_IN_CONCEALED = 1.0

#: A gap among the concealed tiles of this share of a tile or more costs more than a slight
#: one: a slight gap is often the pitch misjudged under perspective, a wide one is likelier
#: the winning tile's, so a reading that leaves it unexplained is the worse one (study seeds,
#: true boxes: +8 -1, check seeds +4 -1; 0.3 also broke the fixture
#: melds_at_near_end_pitch_by_size, 2.0 for the wide ones lost five study hands).
WIDE_GAP = 0.4

P_WIDE_GAP_IN_CONCEALED = 1.5

P_NO_GAP_BEFORE_MELD = 0.4

P_CHI_NOT_LEFT = 2.5

P_MELD_MISMATCH = 5.0

P_NO_WIN = 2.5

P_WIN_LEFT = 0.8

#: A tile set apart after the melds read as the winning tile (some players put it there; the
#: generator never does). At 0.3 a closed hand whose last three tiles follow a gap just over
#: the threshold read as a chi with its winning tile after it, the gap then a meld's and
#: free (study seed 1014/033); 0.8 reads study seeds +1 -0 and check seeds +1 -0 (true
#: boxes); 1.5 gave the same; the fixture win_after_melds still reads at 2.5.
P_WIN_AFTER_MELDS = 0.8

P_STACK_OUTSIDE_MELD = 2.0

#: A tile of a meld's kind lying just beyond its sideways tile, not read as stacked on it.
P_LOOSE_STACK = 0.4

#: A fourth copy of a pon's (or open kan's) tile lying just beyond one of its upright tiles,
#: not read as stacked on it: what the reading pays, and whether it is looked for (the meld
#: is then also read with that tile as the called one, ``doubts._kakan_swaps``).
P_STACK_ON_UPRIGHT = 1.2
STACK_ON_UPRIGHT = True

#: A tile on a sideways tile's far side is an added kan's only when of its kind (also read
#: without it when not).
KAKAN_SAME_KIND = True

P_WRONG_SIDE = 1.2

#: When the best reading finds no dora indicators and the same hand read the other way round
#: (concealed tiles, winning tile and melds alike: a hand without calls) finds them on its far
#: side at a penalty at most this much higher, that reading is taken, named
#: ``possible_indicators``. Study seeds 1001-1016 (true boxes) at 2.0: +3 -0 (1003/099: seen
#: from above near 45 degrees, a sideways judgement turned the reading with the dora the
#: other way round, the dora then on the player's side: 0.95 dearer), check seeds +2 -0; at
#: 3.5 one more (1005/404, 2.95 dearer: two sideways judgements), none lost. 0: off.
SIDE_BY_INDICATORS = 3.5

#: Per indicator band seen only below the hand (the reading is upside down), in P_WRONG_SIDE.
P_BAND_SIDE = 1.0

P_PRIOR = 0.05

#: Doubtful judgements re-read the other way (each costs one more reading of the row), and
#: the penalty a reading against the measured evidence pays.
MAX_DOUBTS_TRIED = 6

#: A doubtful judgement is reported only when the hand it gives taken the other way reads
#: within this penalty of the best (about one unexplained sideways tile).
DOUBT_REACH = 3.0

P_DOUBT_FLIP = 0.5

#: A doubtful sideways tile and a doubtful gap are also taken the other way together: each
#: alone may keep the winning tile the other judgement tells. A hand they give is named as
#: a doubt and kept as an alternative, never chosen (False: each alone only).
SIDE_GAP_PAIRS = True

#: Turning a doubtful tile costs up to this much less than P_DOUBT_FLIP where its near-edge
#: offset speaks for the turn, and as much more where it speaks against it (the offset
#: measured from EDGE_SIDEWAYS / 2, in units of it; rows the box shapes can judge): between
#: readings that explain the layout equally well, the tiles lying as sideways tiles lie
#: decide which are the called ones (0: off). Above P_DOUBT_FLIP, a tile whose offset clearly
#: speaks for the turn is turned even where that costs nothing else: a doubtful judgement is
#: one the box shape barely makes, and from low down or at an angle a flat meld's boxes are
#: all alike while the offset still shows. 0.4 until the twenty-eighth session; study seeds
#: 1001-1016 (true boxes) at 0.6 / 0.8 / 1.0 / 1.3: +3 -0 / +5 -0 / +7 -0 / +11 -1, check
#: seeds 770013-16 +0 -0 / +1 -1 / +2 -1 / +2 -1 (fixtures pon_called_tile_low_view_by_near_edge,
#: study 1008/317, and chis_side_view_called_tiles_by_near_edge, 1003/048; a tile of a
#: section under three tiles has no offset and weighs nothing, doubts._near_edges).
EDGE_FLIP = 1.3

#: At most this many doubtful sideways judgements are taken the other way together, chosen
#: among this many nearest the threshold (side views of messily laid rows hold 10 or more
#: doubts, and the two that complete the hand need not be among the nearest).
MAX_FLIPS = 4

FLIP_POOL = 12

#: Of each number of turned tiles, the best this many readings are taken one turn further.
FLIP_BEAM = 3

#: Where the best reading leaves gaps among the concealed tiles, the most sideways-looking
#: tile of each meld-shaped group after a gap is a doubt too (``_gap_group_doubts``).
GAP_GROUP_DOUBTS = True

#: ... and of each meld-shaped group after it, when the tiles from the gap to the row's end
#: split into melds (melds touch; only the first is set apart by a gap).
GAP_GROUP_CHAIN = True

#: ... and of a chi-shaped group, the first tile is the doubt, not the most sideways-looking:
#: a chi is called from the left only (False: the box shape picks as for a pon).
GAP_GROUP_CHI_FIRST = True

#: ... and when those groups' called tiles are turned all together, each pon's other tiles
#: are tried as its called one (False: the most sideways-looking box only). With the above,
#: study seeds 1001-1020 +5 hands -0, check seeds unchanged; the same sweep for a lone pon
#: after a gap lost one hand on six study seeds and read none more (not kept).
GAP_GROUP_PON_SWEEP = True

#: A pon's or open kan's doubtful called tile is also tried in the place of each of the
#: meld's other tiles, not only of its neighbours (they are all alike, and from low down or
#: at 45 degrees the called tile's box is no wider than theirs): study seeds 1001-1016 +2 -0
#: (a kan's called tile two places along), check seeds unchanged, nothing new silent.
PON_SWEEP_SWAPS = True

#: A pon's or open kan's called tile judged sideways beyond doubt is also tried in the place
#: of each of the meld's other tiles that is a doubt (seen end-on, the widest-looking box
#: need not be the called one). Those readings are named and offered, never chosen: chosen
#: where cheaper, study seeds 1001-1016 read +1 -0 from true boxes but damaged boxes +3 -5
#: (check seeds damaged -2). Named only: study and check seeds' exact hands unchanged, true
#: and damaged; 1004/044 offered and named; damaged wrong hands not named 51 -> 48 (study)
#: and 16 -> 15 (check), no new alternatives on right hands.
SWAP_TO_DOUBTFUL = True

#: A ``gap_in_concealed`` warning also names the winning tile read (its detection last, and
#: as ``winning_tile_detection``): a gap among the concealed tiles is what sets a winning
#: tile apart, so the winning tile read is in doubt with it. Naming only; no reading changes.
GAP_NAMES_WIN = True

#: A ``doubtful_gap`` warning whose doubtful gap lies beside the winning tile read also names
#: that tile (last, and as ``winning_tile_detection``): the gap is what sets it apart, so
#: taken the other way another tile may be the winning one. Naming only; no reading changes:
#: study seeds 1001-1016 true wrong hands not named 1 -> 0 (1011/390), damaged 38 -> 37;
#: check seeds unchanged; exact hands unchanged on both.
DOUBTFUL_GAP_NAMES_WIN = True

#: Tiles turned together that give a hand a single turn gave are kept when they read it for
#: less (False: dropped, a hand already seen).
KEEP_CHEAPER_TURNS = True

#: A turned sideways judgement (or a called tile's swap) that reads the same hand as judged
#: for less is kept as that hand's reading: the turn explains the layout better (False:
#: dropped, as a turn that changes nothing).
SAME_HAND_TURNS = True

#: Doubts are re-read together only when the reading as judged leaves one of these: tiles
#: out of place, or a chi called from the wrong player (its sideways tile misjudged). A gap
#: inside a meld and a winning tile after the melds are out of place too (study seed 1002,
#: scene 135: two neighbours near a closed hand's end, widened by perspective, read as a
#: chi's called tile and the winning tile after it; both turned upright, it reads closed):
#: study seeds 1001-1016 true boxes +1 -0 (damaged +5 -1), check seeds 770013-16 +0 -0
#: (damaged +1 -0). So is a meld that matches no meld (study 1002/173: the four concealed
#: tiles, of two kinds, read as a kan and the three calls as concealed tiles; re-read
#: together, the calls read as laid): study true +1 -0, check +0 -0 (true and damaged), the
#: reporting sets unchanged.
FLIP_WHEN = frozenset(
    {
        "gap_in_concealed",
        "no_winning_tile",
        "unexpected_sideways",
        "chi_not_from_left",
        "gap_in_meld",
        "win_after_melds",
        "meld_mismatch",
    }
)

#: Other parses within this penalty of the best are returned as alternatives.
ALTERNATIVE_MARGIN = 1.0

#: ... and within this one they make the grouping ambiguous (a warning).
AMBIGUOUS_MARGIN = 0.3

#: The win situation used for what-if scoring when the request gives none.
DEFAULT_CONTEXT: dict[str, Any] = {
    "ruleset": "tenhou",
    "win": "tsumo",
    "round_wind": "E",
    "seat_wind": "S",
}

DIRECTIONS = ("left", "across", "right")

#: A face-down tile on the hand row's line, between two of its tiles and further than this
#: many pitches from each of them (a hole in the row), joins the row: a closed kan's backs
#: claimed by a wall just behind the hand (study 1014/318: one of an ankan's two backs in
#: the wall's row, the hand read as none). Study seeds 1001-1016 +2 -0, check seeds +0 -0
#: (true boxes); damaged boxes unchanged. 0: off.
FACE_DOWN_FILL = 0.5

#: When no row reads as a hand, the rows are read again without the face-down tiles that
#: have no place of their own among their face-up tiles: between two face-up neighbours
#: closer than this many of their pitch (no room for a tile between them), on a face-up
#: tile's place, more than a place beyond them, or beyond them with another back; named
#: ``backs_left_out``. Seen from low down from across the table, a wall just beyond the hand
#: falls on the hand's line, its backs half a tile along from the hand's tiles; a closed
#: kan's backs fill places of their own. Only as a last resort: a river's row thinned so can
#: read as a hand of discards (study 1002/316 did, over the true hand read after its doubts).
#: Study seeds 1001-1016 +7 -0 (seven hands read as none, 1011/413 among them), check seeds
#: +1 -0 (true boxes); damaged boxes: study 2224 -> 2219 wrong, check 542, silent unchanged.
#: 0: off.
BACKS_INTERLEAVED = 1.6
