{{%AUTOESCAPE context="HTML"}}<h1>{{T_CHECK_TITLE}}</h1>
<p>{{T_CHECK_INTRO}}</p>
{{#NOTICE}}<div class="notice {{NOTICE_CLASS}}" role="alert" id="notice">{{NOTICE_TEXT}}</div>{{/NOTICE}}
<form method="post" action="/" enctype="multipart/form-data" class="check" id="check-form">
<input type="hidden" name="csrf" value="{{CSRF}}">
<label for="content">{{T_CHECK_CONTENT}}</label>
<textarea id="content" name="content" rows="8" aria-describedby="content-hint">{{CONTENT:pre_escape}}</textarea>
<p class="hint" id="content-hint">{{T_CHECK_CONTENT_HINT}}</p>
<div class="row">
<div>
<label for="kind">{{T_CHECK_KIND}}</label>
<select id="kind" name="kind">
<option value="auto"{{#KIND_AUTO}} selected{{/KIND_AUTO}}>{{T_CHECK_KIND_AUTO}}</option>
<option value="text"{{#KIND_TEXT}} selected{{/KIND_TEXT}}>{{T_CHECK_KIND_TEXT}}</option>
<option value="email"{{#KIND_EMAIL}} selected{{/KIND_EMAIL}}>{{T_CHECK_KIND_EMAIL}}</option>
<option value="url"{{#KIND_URL}} selected{{/KIND_URL}}>{{T_CHECK_KIND_URL}}</option>
</select>
</div>
<div>
<label for="file">{{T_CHECK_FILE}}</label>
<input type="file" id="file" name="file" accept="image/*,.pdf,.docx" aria-describedby="file-hint">
<p class="hint" id="file-hint">{{T_CHECK_FILE_HINT}}</p>
</div>
</div>
<button type="submit" id="check-submit" data-busy="{{T_CHECK_BUSY}}">{{T_CHECK_SUBMIT}}</button>
<p class="remaining" id="remaining">{{REMAINING}}</p>
</form>
{{REPORT:none}}
