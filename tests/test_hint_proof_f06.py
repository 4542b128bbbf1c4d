"""A newcomer's read of exercise 06 (session 9, issue 46): kinds of hint that named a
mistake the learner did not make, each planted here as a NEW instance (another question,
another way to write the slip, another lesson, or the mechanism itself with made-up
calls), with a near miss that must keep its story.

(1) A function's story that the shapes after the first two refute: three MLP matrices,
    where d_ff = 4·d on both GPT-2 shapes, read as "attention matrices counted twice".
    The learner's own function put right by one edit explains every call it fits
    (function_hints.call_explanations), not only those where no part's story was found
    first, so the story that fits every call is said (function_hints.most_telling).
(3) Two readings of one number are offered both, or neither, never one as fact: a term
    of a sum multiplied by a count of the answer (T) once too often is read beside the
    two-change stories (parts._times_count).
(4) A count is said as what it counts, not as a form the learner may never have written
    ("not T²" to a learner who priced every position at the last one's T keys).
(5) A change that gives the learner's number only within the tolerance (a term left as
    1 or 12 FLOPs of 10¹¹), beside one that gives it to float64's last digits, is not a
    second slip ("your share has no head", "you used L for head").
(6) Measured words that name what another section of the lesson teaches point there
    (attention over the context is section 4, not the shares' section 5).

Each test but the near misses was red on the code before this change (lib/ at 8f1f7d1).
"""

from __future__ import annotations

from embedlab.grading import function_hints, parts

from solution_runner import incorrect_detail

L06 = "06-params-vs-compute"
FORWARD = "def forward_flops_per_token(V, d, L, d_ff, context):\n"
ATTENTION_TWICE = "attention matrices (q, k, v and out: 4 · d²) counted twice"
_detail = incorrect_detail  # the notebook check's words: incorrect, none garbled


# (1) ----------------------------------------------------------------------------------

def test_1_three_mlp_matrices_written_other_ways_are_not_told_attention_twice():
    # lesson 04's SwiGLU habit written otherwise than the newcomer's `3 * d * d_ff`
    for body in ("    mlp = 2 * d * d_ff + d * d_ff\n"
                 "    return 2 * L * (4 * d * d + mlp) + 4 * L * context * d"
                 " + 2 * d * V\n",
                 "    per_layer = 2 * (4 * d * d) + 2 * (2 * d * d_ff)"
                 " + 2 * (d * d_ff)\n"
                 "    return L * per_layer + 4 * L * context * d + 2 * d * V\n"):
        detail = _detail(L06, "forward_flops_per_token", FORWARD + body)
        hint = detail.split(":", 1)[-1]
        assert ATTENTION_TWICE not in detail and "attention" not in hint, detail


def test_1_near_miss_attention_matrices_really_counted_twice_keep_their_story():
    body = ("    attention = 2 * (4 * d * d)\n"
            "    return 2 * L * (attention + 2 * d * d_ff) + 4 * L * context * d"
            " + 2 * d * V\n")
    assert ATTENTION_TWICE in _detail(L06, "forward_flops_per_token", FORWARD + body)


# (3) ----------------------------------------------------------------------------------

def test_3_attention_t_times_too_large_in_a_prompts_share_is_named():
    # question 5 (the newcomer's was question 4): the whole pass's attention × T again
    detail = _detail(L06, "head_share_prompt",
                     "attention = c.attention_per_key * T * (T + 1) // 2\n"
                     "head_share_prompt = c.head / (T * (c.input + c.blocks)"
                     " + T * attention + c.head)\n")
    assert "attention over the context is T times too large" in detail, detail


def test_3_two_readings_of_one_number_are_both_offered_or_neither():
    # question 4 with every part over one position and attention over the whole pass:
    # the newcomer's number written the other way; the head-once story is no fact
    detail = _detail(L06, "head_share_training",
                     "attention = c.attention_per_key * T * (T + 1) // 2\n"
                     "head_share_training = c.head / (c.input + c.blocks + c.head"
                     " + attention)\n")
    if "the head runs T times" in detail:
        assert "T times too large" in detail, detail


# (4) ----------------------------------------------------------------------------------

def test_4_every_position_priced_at_t_keys_is_told_the_count_not_a_form():
    # question 5: each position at the last one's T keys, the sum never written as T²
    detail = _detail(L06, "head_share_prompt",
                     "per_token = c.input + c.blocks + c.attention_per_key * T\n"
                     "head_share_prompt = c.head / (T * per_token + c.head)\n")
    assert "T keys at every position" in detail and "not T²" not in detail, detail


def test_4_near_miss_t_squared_written_keeps_the_story():
    detail = _detail(L06, "head_share_training",
                     "head_share_training = T * c.head / (T * (c.input + c.blocks"
                     " + c.head) + c.attention_per_key * T**2)\n")
    assert "T² in all" in detail and "T(T+1)/2" in detail, detail


# (5) ----------------------------------------------------------------------------------

def test_5_near_miss_the_head_left_out_of_a_training_share_stays_one_slip():
    # question 4 (the newcomer's was question 5): the whole without its T × head
    detail = _detail(L06, "head_share_training",
                     "attention = c.attention_per_key * T * (T + 1) // 2\n"
                     "head_share_training = T * c.head / (T * (c.input + c.blocks)"
                     " + attention)\n")
    assert "you divided by the rest" in detail and "two slips" not in detail, detail
    assert "has no head" not in detail and "for head" not in detail, detail


def test_5_a_change_within_the_tolerance_gives_way_to_one_to_the_last_digits():
    # the mechanism: a share whose whole holds a 1 × head term; leaving out its factor
    # head leaves 1 (within 10⁻⁹ of the share of the rest), dividing by the rest gives
    # the learner's number exactly
    head, rest = 77_194_752, 170_000_000 * 1024 + 19_000_000_000

    def head_term():
        return parts.Prod("the head", [parts.Part("once", 1, key="n"),
                                       parts.Part("head", head)])

    whole = parts.Sum("the whole", [parts.Part("the rest", rest), head_term()])
    answer = parts.Answer(parts.Ratio("the share", head_term(), whole),
                          context="your share", units=False)
    said = parts.search(answer, head / rest)
    assert said and "two slips" not in said and "has no head" not in said, said


# (6) ----------------------------------------------------------------------------------

def test_6_attention_left_out_of_a_prompts_share_points_where_attention_is_taught():
    detail = _detail(L06, "head_share_prompt",
                     "head_share_prompt = c.head / (T * (c.input + c.blocks)"
                     " + c.head)\n")
    assert "attention over the context" in detail, detail
    assert "“4. Attention over the context" in detail, detail


def test_6_near_miss_measured_words_naming_nothing_keep_the_questions_section():
    detail = _detail(L06, "head_share_prompt",
                     "head_share_prompt = c.head / (T * (c.input + c.blocks)"
                     " + c.attention_per_key * T + c.head)\n")
    assert "“5. The head's share" in detail and "“4." not in detail, detail


def test_6_words_on_another_lessons_question_point_where_what_they_name_is_taught():
    # lesson 07's max_batch practises section 4 (batch × context); words that name the
    # KV cache point to section 3, where it is taught
    from embedlab.grading.lessons import questions_for

    q = next(q for q in questions_for("07-memory") if q.name == "max_batch")
    said = q._pointed("too small: recheck the KV cache of one sequence")
    assert said.endswith("“3. The KV cache”"), said
    said = q._pointed("too small: recheck each step")
    assert said.endswith("“4. Batch × context”"), said
