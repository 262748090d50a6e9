/*
** test_json.c: the JSON writer and reader of core/base/json.c: what the
** writer makes reads back as it was, escapes and all, and the reader
** refuses what RFC 8259 refuses.
*/
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/json.h"

static void test_write(void **unused) {
  (void)unused;
  json_out out;
  json_init(&out);
  json_begin_object(&out);
  json_key(&out, "id");
  json_cstring(&out, "ffo.obf:3");
  json_key(&out, "score");
  json_int(&out, -12);
  json_key(&out, "pv");
  json_begin_array(&out);
  json_cstring(&out, "g8");
  json_cstring(&out, "h7");
  json_end_array(&out);
  json_key(&out, "ok");
  json_bool(&out, true);
  json_key(&out, "none");
  json_null(&out);
  json_key(&out, "seconds");
  json_number(&out, 0.1);
  json_key(&out, "nan");
  json_number(&out, 0.0 / 0.0);
  json_key(&out, "text");
  json_string(&out, "a\"b\\c\n\x01 炮", 11);
  json_end_object(&out);
  assert_false(out.failed);
  assert_string_equal(out.data,
                      "{\"id\":\"ffo.obf:3\",\"score\":-12,\"pv\":[\"g8\",\"h7\"],"
                      "\"ok\":true,\"none\":null,\"seconds\":0.1,\"nan\":null,"
                      "\"text\":\"a\\\"b\\\\c\\n\\u0001 炮\"}");
  json_reset(&out);
  json_begin_array(&out);
  json_end_array(&out);
  assert_string_equal(out.data, "[]");
  /* whole numbers as digits (10, not 1e+01); the rest as short as reads
     back the same; text with escapes after plain text, keys escaped too */
  json_reset(&out);
  json_begin_array(&out);
  json_number(&out, 10);
  json_number(&out, -123456789012.0);
  json_number(&out, -0.0);
  json_number(&out, 1e20);
  json_number(&out, 2.5);
  json_string(&out, "plain, then \"quoted\"\t", 21);
  json_begin_object(&out);
  json_key(&out, "a\"b");
  json_string(&out, "", 0);
  json_end_object(&out);
  json_end_array(&out);
  assert_false(out.failed);
  assert_string_equal(out.data, "[10,-123456789012,-0,1e+20,2.5,"
                      "\"plain, then \\\"quoted\\\"\\t\",{\"a\\\"b\":\"\"}]");
  json_free(&out);
}

static void test_read_back(void **unused) {
  (void)unused;
  const char *text = " {\"a\": [1, -2.5e3, true, false, null, \"x\\u00e9\\ud83d\\ude00\"],"
                     " \"b\": {\"c\": \"\"}, \"d\": \"tab\\there\"} ";
  size_t at;
  json_value *v = json_parse(text, strlen(text), &at);
  assert_non_null(v);
  assert_int_equal(v->type, JSON_OBJECT);
  assert_int_equal(v->len, 3);
  const json_value *a = json_get(v, "a");
  assert_int_equal(a->type, JSON_ARRAY);
  assert_int_equal(a->len, 6);
  assert_true(a->child->number == 1);
  assert_true(a->child->next->number == -2500);
  assert_int_equal(a->child->next->next->type, JSON_TRUE);
  const json_value *s = a->child->next->next->next->next->next;
  assert_int_equal(s->type, JSON_STRING);
  assert_string_equal(s->string, "x\xc3\xa9\xf0\x9f\x98\x80");
  assert_int_equal(json_get(json_get(v, "b"), "c")->len, 0);
  assert_string_equal(json_get(v, "d")->string, "tab\there");
  assert_null(json_get(v, "e"));
  json_free_value(v);
  /* what the writer writes, the reader reads */
  json_out out;
  json_init(&out);
  json_begin_object(&out);
  json_key(&out, "k");
  json_string(&out, "\x1f\"\\/\r", 5);
  json_end_object(&out);
  v = json_parse(out.data, out.len, NULL);
  assert_non_null(v);
  assert_memory_equal(json_get(v, "k")->string, "\x1f\"\\/\r", 5);
  json_free_value(v);
  json_free(&out);
}

static void test_refused(void **unused) {
  (void)unused;
  static const char *const bad[] = {
    "", "{", "[1,]", "{\"a\" 1}", "{\"a\":}", "01", "1.", "-", "1e", "tru",
    "\"abc", "\"\\x\"", "\"\\ud800\"", "\"a\nb\"", "[1] 2", "{1: 2}", "nul",
    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    size_t at = 999;
    assert_null(json_parse(bad[i], strlen(bad[i]), &at));
    assert_true(at <= strlen(bad[i]));
  }
  /* a zero byte is not whitespace */
  assert_null(json_parse("1\0", 2, NULL));
}

int main(void) {
  const struct CMUnitTest tests[] = {
    cmocka_unit_test(test_write),
    cmocka_unit_test(test_read_back),
    cmocka_unit_test(test_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
