# Writes the reply corpus of test_llm_reply_corpus: realistic replies of several model families
# (instruction-following, reasoning with <think>/</think>, edit-format models, small local models)
# and corpus.json with what the parser must make of each. Run from anywhere:
#   python3 tests/agent/data/llm_replies/generate.py
# The parent the edits apply to is tests/eval/data/tasks/vadd/baseline.cpp.
import json, os
D=os.path.dirname(os.path.abspath(__file__))
K='''#include "kernel_operator.h"
using namespace AscendC;
constexpr uint32_t TILE = 2048;

extern "C" __global__ __aicore__ void vadd(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR tiling) {
    uint32_t n = *reinterpret_cast<uint32_t*>(tiling);
    TPipe pipe;
    TQue<TPosition::VECIN, 2> qx, qy;
    TQue<TPosition::VECOUT, 2> qz;
    pipe.InitBuffer(qx, 2, TILE * sizeof(float));
    pipe.InitBuffer(qy, 2, TILE * sizeof(float));
    pipe.InitBuffer(qz, 2, TILE * sizeof(float));
    // MARK-FULL-FILE
}

SAGE_HOST(ctx) {
    uint32_t n = (uint32_t)ctx.numel("x");
    ICPU_RUN_KF(vadd, 8, ctx.gm("x"), ctx.gm("y"), ctx.gm("z"), ctx.tiling(n));
}
'''
K_OLD=K.replace('MARK-FULL-FILE','MARK-OLD-DRAFT')
KNOHOST=K.split('SAGE_HOST')[0].replace('MARK-FULL-FILE','MARK-KERNEL-ONLY')
SR='''<<<<<<< SEARCH
    TQue<TPosition::VECIN, 1> qx, qy;
    TQue<TPosition::VECOUT, 1> qz;
    pipe.InitBuffer(qx, 1, TILE * sizeof(float));
    pipe.InitBuffer(qy, 1, TILE * sizeof(float));
    pipe.InitBuffer(qz, 1, TILE * sizeof(float));
=======
    TQue<TPosition::VECIN, 2> qx, qy;
    TQue<TPosition::VECOUT, 2> qz;
    pipe.InitBuffer(qx, 2, TILE * sizeof(float));  // MARK-SR
    pipe.InitBuffer(qy, 2, TILE * sizeof(float));
    pipe.InitBuffer(qz, 2, TILE * sizeof(float));
>>>>>>> REPLACE
'''
SR2='''<<<<<<< SEARCH
    ICPU_RUN_KF(vadd, 1, ctx.gm("x"), ctx.gm("y"), ctx.gm("z"), ctx.tiling(n));
=======
    ICPU_RUN_KF(vadd, 8, ctx.gm("x"), ctx.gm("y"), ctx.gm("z"), ctx.tiling(n));  // MARK-SR2
>>>>>>> REPLACE
'''
DIFF='''--- a/kernel.cpp
+++ b/kernel.cpp
@@ -38,4 +38,4 @@
 SAGE_HOST(ctx) {
     uint32_t n = (uint32_t)ctx.numel("x");
-    ICPU_RUN_KF(vadd, 1, ctx.gm("x"), ctx.gm("y"), ctx.gm("z"), ctx.tiling(n));
+    ICPU_RUN_KF(vadd, 8, ctx.gm("x"), ctx.gm("y"), ctx.gm("z"), ctx.tiling(n));  // MARK-DIFF
 }
'''
FRAG='''__aicore__ inline void Compute(int32_t progress) {
    LocalTensor<float> a = qx.DeQue<float>();
    LocalTensor<float> b = qy.DeQue<float>();
    LocalTensor<float> c = qz.AllocTensor<float>();
    Add(c, a, b, TILE);
    qz.EnQue(c);
}
'''
cases=[]
def add(name, family, text, **exp):
    fn='%02d_%s.md'%(len(cases)+1, name)
    open(os.path.join(D,fn),'w').write(text)
    e={'file':fn,'family':family}; e.update(exp); cases.append(e)
ok=dict(ok=True)
FULL=['MARK-FULL-FILE']
# --- plain instruction-following models (gpt-4o style)
add('contract_exact','gpt','```cpp\n'+K+'```\nADOPTED: E12, E7\nRATIONALE: Double-buffered the queues and used 8 blocks.\n', ok=True, contains=FULL, adopted=[12,7], adoption_known=True, rationale='Double-buffered')
add('contract_none','gpt','```cpp\n'+K+'```\nADOPTED: none\nRATIONALE: Nothing from memory applied.\n', ok=True, contains=FULL, adopted=[], adoption_known=True)
add('prose_before_after','gpt','Here is the optimised kernel. I split the work over 8 blocks.\n\n```cpp\n'+K+'```\n\nADOPTED: 12\n\nRATIONALE: More blocks.\n\nLet me know if you need anything else!\n', ok=True, contains=FULL, adopted=[12], adoption_known=True)
add('bold_markers','gpt','```cpp\n'+K+'```\n**ADOPTED:** E12\n**RATIONALE:** Raised blockDim to 8.\n', ok=True, contains=FULL, adopted=[12], adoption_known=True, rationale='Raised blockDim')
add('heading_markers','gpt','### Kernel\n```cpp\n'+K+'```\n### ADOPTED: [E12], [E7]\n### RATIONALE: two lessons applied\n', ok=True, contains=FULL, adopted=[12,7], adoption_known=True)
add('no_adoption_line','gpt','```cpp\n'+K+'```\nRATIONALE: I forgot the adoption line.\n', ok=True, contains=FULL, adopted=[], adoption_known=False)
add('adoption_odd_words','gpt','```cpp\n'+K+'```\nADOPTED: the double-buffering lesson\nRATIONALE: r\n', ok=True, contains=FULL, adopted=[], adoption_known=False)
add('adopted_experiences_label','gpt','```cpp\n'+K+'```\nAdopted experiences: E6\nRationale: split over blocks\n', ok=True, contains=FULL, adopted=[6], adoption_known=True)
add('adopted_slash','llama','```cpp\n'+K+'```\nADOPTED: E6/E9\nRATIONALE: r\n', ok=True, contains=FULL, adopted=[6,9], adoption_known=True)
add('adopted_pipe_sep','llama','```cpp\n'+K+'```\nADOPTED: E6 | E9 | E11\n', ok=True, contains=FULL, adopted=[6,9,11], adoption_known=True)
add('adopted_and_words','llama','```cpp\n'+K+'```\nADOPTED: E6 and E9 (the tiling one)\n', ok=True, contains=FULL, adopted=[6,9], adoption_known=True)
add('adopted_bullets_below','qwen','```cpp\n'+K+'```\nADOPTED:\n- E6: double buffering\n- E9: split over blocks\n\nRATIONALE: Applied both.\n', ok=True, contains=FULL, adopted=[6,9], adoption_known=True, rationale='Applied both')
add('adopted_numbered_list','qwen','```cpp\n'+K+'```\n**Adopted experiences:**\n1. [E3] align tails\n2. [E14] more blocks\n', ok=True, contains=FULL, adopted=[3,14], adoption_known=True)
add('adopted_hash_ids','gpt','```cpp\n'+K+'```\nADOPTED: #4, #5\n', ok=True, contains=FULL, adopted=[4,5], adoption_known=True)
add('adopted_id_with_numbers_in_prose','gpt','```cpp\n'+K+'```\nADOPTED: E6 (use 8 blocks of 2048 elements)\n', ok=True, contains=FULL, adopted=[6], adoption_known=True)
add('adopted_json_trailer','mistral','```cpp\n'+K+'```\n{"adopted": ["E6"], "rationale": "split over blocks"}\n', ok=True, contains=FULL, adopted=[6], adoption_known=True)
add('adopted_json_block','mistral','```cpp\n'+K+'```\n```json\n{"adopted": [6, 9]}\n```\n', ok=True, contains=FULL, adopted=[6,9], adoption_known=True)
add('adopted_json_empty','mistral','```cpp\n'+K+'```\n{"adopted": []}\n', ok=True, contains=FULL, adopted=[], adoption_known=True)
add('adopted_n_a','gpt','```cpp\n'+K+'```\nADOPTED: N/A\n', ok=True, contains=FULL, adopted=[], adoption_known=True)
add('last_adopted_wins','gpt','ADOPTED: E1\n```cpp\n'+K+'```\nADOPTED: E2\n', ok=True, contains=FULL, adopted=[2], adoption_known=True)
# --- fences
add('fence_cpp_filename','deepseek','```cpp:kernel.cpp\n'+K+'```\nADOPTED: none\n', ok=True, contains=FULL, adoption_known=True)
add('fence_cxx_title','claude','```c++ title="kernel.cpp"\n'+K+'```\nADOPTED: none\n', ok=True, contains=FULL, adoption_known=True)
add('fence_attrs','gpt','```cpp {.line-numbers}\n'+K+'```\nADOPTED: none\n', ok=True, contains=FULL, adoption_known=True)
add('fence_tilde','llama','~~~cpp\n'+K+'~~~\nADOPTED: none\n', ok=True, contains=FULL, adoption_known=True)
add('fence_four_backticks','claude','````cpp\n'+K+'````\nADOPTED: none\n', ok=True, contains=FULL, adoption_known=True)
add('fence_no_language','llama','```\n'+K+'```\nADOPTED: none\n', ok=True, contains=FULL, adoption_known=True)
add('fence_uppercase','gpt','```CPP\n'+K+'```\nADOPTED: none\n', ok=True, contains=FULL, adoption_known=True)
add('no_fence_bare_file','small-local',K+'\nADOPTED: none\nRATIONALE: bare\n', ok=True, contains=FULL, adoption_known=True)
add('line_numbers_copied','small-local','```cpp\n'+''.join('%3d | %s\n'%(i+1,l) for i,l in enumerate(K.splitlines()))+'```\nADOPTED: none\n', ok=True, contains=FULL, not_contains=[' | #include'], adoption_known=True)
# --- several blocks
add('two_versions_last_wins','gpt','First attempt:\n```cpp\n'+K_OLD+'```\nOn second thought, a better version:\n```cpp\n'+K+'```\nADOPTED: E1\n', ok=True, contains=FULL, not_contains=['MARK-OLD-DRAFT'], adopted=[1], adoption_known=True)
add('snippet_then_file','gpt','The key change is:\n```cpp\npipe.InitBuffer(qx, 2, TILE * sizeof(float));\n```\nFull file:\n```cpp\n'+K+'```\nADOPTED: none\n', ok=True, contains=FULL, adoption_known=True)
add('file_then_snippet','gpt','```cpp\n'+K+'```\nThe key line is\n```cpp\nTQue<TPosition::VECIN, 2> qx;\n```\nADOPTED: none\n', ok=True, contains=FULL, adoption_known=True)
add('kernel_without_host','gpt','```cpp\n'+KNOHOST+'```\nADOPTED: none\n', ok=True, contains=['MARK-KERNEL-ONLY'], adoption_known=True)
add('full_file_then_truncated','gpt','```cpp\n'+K+'```\nAnd a variant:\n```cpp\n'+K_OLD[:300], ok=True, contains=FULL, adoption_known=False)
# --- reasoning models
add('think_paired','deepseek-r1','<think>\nThe queue depth is 1, so MTE2 and V serialise. Maybe:\n```cpp\n'+K_OLD+'```\nNo, better to also raise blocks.\n</think>\n\n```cpp\n'+K+'```\nADOPTED: E7\nRATIONALE: depth 2.\n', ok=True, contains=FULL, not_contains=['MARK-OLD-DRAFT'], adopted=[7], adoption_known=True)
add('think_lone_close','qwq','Okay, the user wants a faster kernel. Let me draft one:\n```cpp\n'+K_OLD+'```\nHmm, the tail is wrong in that one.\n</think>\n\n```cpp\n'+K+'```\nADOPTED: none\nRATIONALE: fixed tail.\n', ok=True, contains=FULL, not_contains=['MARK-OLD-DRAFT'], adoption_known=True)
add('think_lone_close_draft_only','qwq','Let me think. Draft:\n```cpp\n'+K_OLD+'```\n</think>\n\nI could not finish.', ok=False, error='no ```cpp code block')
add('think_unclosed_cut','deepseek-r1','<think>\nLong reasoning about tiling that never ends because max_tokens ran out', ok=False, error='no ```cpp code block')
add('think_only_then_empty','deepseek-r1','<think>all reasoning</think>\n', ok=False, error='empty')
add('think_with_search_replace','qwen3','<think>I only need to change the queue depth.</think>\n'+SR+'ADOPTED: E7\nRATIONALE: depth 2\n', ok=True, contains=['MARK-SR','DataCopyPad(gz[off], c, p);'], edited=True, adopted=[7], adoption_known=True)
# --- edits
add('search_replace_one','claude',SR+'\nADOPTED: E7\nRATIONALE: double buffering\n', ok=True, contains=['MARK-SR','Add(c, a, b, len);  // COMPUTE','SAGE_HOST'], edited=True, adopted=[7], adoption_known=True)
add('search_replace_two','claude','Two edits:\n\n'+SR+'\n'+SR2+'\nADOPTED: E7, E12\n', ok=True, contains=['MARK-SR','MARK-SR2'], edited=True, adopted=[7,12], adoption_known=True)
add('search_replace_in_fence','aider-style','kernel.cpp\n```cpp\n'+SR2+'```\nADOPTED: none\n', ok=True, contains=['MARK-SR2','TQue<TPosition::VECIN, 1> qx, qy;'], edited=True, adoption_known=True)
add('search_replace_reindented','small-local',SR2.replace('    ICPU','ICPU')+'ADOPTED: none\n', ok=True, contains=['MARK-SR2'], edited=True, adoption_known=True)
add('search_replace_no_match','claude','<<<<<<< SEARCH\n    ICPU_RUN_KF(vadd, 48, ctx.gm("x"), ctx.gm("y"), ctx.gm("z"), ctx.tiling(n));\n=======\n    ICPU_RUN_KF(vadd, 8, ctx.gm("x"), ctx.gm("y"), ctx.gm("z"), ctx.tiling(n));\n>>>>>>> REPLACE\nADOPTED: none\n', ok=False, error='does not match the parent: the line `ICPU_RUN_KF(vadd, 48')
add('search_replace_ambiguous','claude','<<<<<<< SEARCH\n}\n=======\n} // end\n>>>>>>> REPLACE\nADOPTED: none\n', ok=False, error='places in the parent; add surrounding lines')
add('search_replace_unterminated','claude','<<<<<<< SEARCH\n    qx.EnQue(a);\n=======\n    qx.EnQue(a);\n', ok=False, error='is not complete')
add('search_replace_in_draft','claude',SR+'ADOPTED: none\n', ok=False, parent=False, error='there is none in the draft stage')
add('unified_diff_block','gpt','```diff\n'+DIFF+'```\nADOPTED: E12\nRATIONALE: 8 blocks\n', ok=True, contains=['MARK-DIFF','Add(c, a, b, len);  // COMPUTE'], edited=True, adopted=[12], adoption_known=True)
add('unified_diff_in_cpp_block','gpt','```cpp\n'+DIFF+'```\nADOPTED: E12\n', ok=True, contains=['MARK-DIFF'], not_contains=['@@','+++ b/'], edited=True, adopted=[12], adoption_known=True)
add('unified_diff_no_match','gpt','```diff\n@@ -1,2 +1,2 @@\n-#include "kernel_other.h"\n+#include "kernel_operator.h"\n```\nADOPTED: none\n', ok=False, error='does not match the parent')
add('diff_without_hunk','gpt','```diff\nchange TILE to 2048\n```\n', ok=False, error='has no hunk')
# --- fragments and refusals
add('partial_function','gpt','Only Compute changes:\n```cpp\n'+FRAG+'```\nADOPTED: none\n', ok=False, error='fragment: it has neither the kernel entry')
add('placeholder_only','small-local','```cpp\n// ... rest of the kernel unchanged ...\nDataCopy(a, gx[off], len);\n```\nADOPTED: none\n', ok=False, error='fragment')
add('refusal','gpt','I am sorry, but I cannot help with that.', ok=False, error='no ```cpp code block')
add('only_json_block','mistral','```json\n{"adopted": []}\n```\n', ok=False, error='found ```json')
add('unclosed_full_file','gpt','```cpp\n'+K[:-40], ok=False, error='not closed')
# --- shapes small local models write (issue 30, point 4)
PARENT=open(os.path.join(D,'..','..','..','eval','data','tasks','vadd','baseline.cpp')).read()
add('fence_ascend_c','small-local','```ascend_c\n'+K+'```\nADOPTED: none\n', ok=True, contains=FULL, adoption_known=True)
add('fence_ascend_dash_c','small-local','```Ascend-C\n'+K+'```\nADOPTED: none\n', ok=True, contains=FULL, adoption_known=True)
add('new_file_then_original_labelled','small-local','Here is the new kernel:\n```cpp\n'+K+'```\n\nThe original, for reference:\n```cpp\n'+K_OLD+'```\nADOPTED: E7\nRATIONALE: depth 2\n', ok=True, contains=FULL, not_contains=['MARK-OLD-DRAFT'], adopted=[7], adoption_known=True)
add('new_file_then_parent_unlabelled','small-local','```cpp\n'+K+'```\n\n```cpp\n'+PARENT+'```\nADOPTED: none\n', ok=True, contains=FULL, adoption_known=True)
NUMBERED_SR='<<<<<<< SEARCH\n40 |     ICPU_RUN_KF(vadd, 1, ctx.gm("x"), ctx.gm("y"), ctx.gm("z"), ctx.tiling(n));\n=======\n40 |     ICPU_RUN_KF(vadd, 8, ctx.gm("x"), ctx.gm("y"), ctx.gm("z"), ctx.tiling(n));  // MARK-SR2\n>>>>>>> REPLACE\n'
add('search_with_copied_line_numbers','small-local',NUMBERED_SR+'ADOPTED: none\n', ok=True, contains=['MARK-SR2','Add(c, a, b, len);  // COMPUTE'], not_contains=['40 |'], edited=True, adoption_known=True)
add('placeholder_rest_unchanged','small-local','```cpp\n'+K.replace('    // MARK-FULL-FILE','    // ... rest unchanged')+'```\nADOPTED: none\n', ok=False, error='leaves part of the file out with a placeholder (line 13')
add('placeholder_existing_code','small-local','```cpp\n'+K.replace('    // MARK-FULL-FILE','    /* ... existing code ... */')+'```\nADOPTED: none\n', ok=False, error='placeholder')
add('placeholder_in_replace','small-local','<<<<<<< SEARCH\n        Add(c, a, b, len);  // COMPUTE\n=======\n        // ... rest of the code unchanged\n>>>>>>> REPLACE\nADOPTED: none\n', ok=False, error='placeholder')
add('cut_at_max_tokens_early','small-local','Sure, here is the kernel:\n```cpp\n#include "kernel_operator.h"\nusing namespace AscendC;\nconstexpr uint32_t TI', ok=False, error='code block is not closed: the reply was cut off')
add('adopted_unknown_id','small-local','```cpp\n'+K+'```\nADOPTED: E9999\n', ok=True, contains=FULL, adopted=[9999], adoption_known=True)
json.dump(cases, open(os.path.join(D,'corpus.json'),'w'), indent=1)
print(len(cases))
